// The runtime's functions that take a kernel, with a coarsened kernel:
// hints as written; cudaFuncGetAttributes as written in block mode, and in
// thread mode with maxThreadsPerBlock of the logical block (the coarsened
// kernel's times K, at most 1024); in block mode a dynamic shared-memory
// limit for one logical block becomes K shares, the occupancy calculators
// count logical blocks (K per block), and in thread mode they take and give
// logical block sizes; cudaLaunchKernel, cudaLaunchCooperativeKernel and
// cudaLaunchKernelEx are launches rewritten as <<<>>> is (thread mode: the
// block divided; block mode: the grid rescaled and the original extents,
// and the share, passed first, through a new argument array for
// cudaLaunchKernel).  Inside a macro's argument the call is rewritten where
// its text is, as an expression whose commas are all inside parentheses; a
// macro that expands its argument twice gets one rewrite.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2,2 -dim x,y %t.in.cu -o %t.xy.cu
// RUN: FileCheck %s --check-prefix=XY < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu

// BLOCK-LABEL: int main() {
// BLOCK:      cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
// BLOCK:      checkCudaErrors(cudaFuncGetAttributes(&attr, k));
// BLOCK-NEXT: checkCudaErrors([&]() -> cudaError_t { int *__tf_n = (&nb); const cudaError_t __tf_e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(__tf_n, k, 256, 0); if (__tf_e == cudaSuccess) *__tf_n *= 2; return __tf_e; }());
// BLOCK-NEXT: checkCudaErrors([&]() -> cudaError_t { int *__tf_g = (&grid); const cudaError_t __tf_e = cudaOccupancyMaxPotentialBlockSize(__tf_g, &block, k); if (__tf_e == cudaSuccess) *__tf_g *= 2; return __tf_e; }());
// BLOCK-NEXT: checkCudaErrors([&]() -> cudaError_t { int *__tf_g = (&grid); const cudaError_t __tf_e = cudaOccupancyMaxPotentialBlockSize(__tf_g, &block, k, 0, 512); if (__tf_e == cudaSuccess) *__tf_g *= 2; return __tf_e; }());
// BLOCK:      checkCudaErrors([&]() -> cudaError_t { const dim3 __tf_grid = (dim3(n / 256)); void **__tf_args = (args); const void *__tf_f = (const void *)((const void *)k); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); void *__tf_argv[3]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = __tf_args[0]; __tf_argv[2] = __tf_args[1]; return cudaLaunchKernel(__tf_f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), dim3(256), __tf_argv, 0, 0); }());
// BLOCK-NEXT: TWICE([&]() -> cudaError_t { const dim3 __tf_grid = (n / 256); {{.*}} return cudaLaunchCooperativeKernel(__tf_f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256, __tf_argv, 0, 0); }());
// BLOCK:      checkCudaErrors([&]() -> cudaError_t { cudaLaunchConfig_t __tf_cfg = *(&cfg); const dim3 __tf_grid = __tf_cfg.gridDim; __tf_cfg.gridDim = ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); return cudaLaunchKernelEx(&__tf_cfg, k, __tf_ext0, p, n); }());
// BLOCK:      checkCudaErrors(cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, ::tfuse_rt::dyn_shared_limit(dyn, 2u * (size_t)::tfuse_rt::dyn_share((int)smem))));
// BLOCK-NEXT: cudaFuncSetAttribute(dyn, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
// BLOCK-NEXT: [&]() -> cudaError_t { int *__tf_n = (&nb); const cudaError_t __tf_e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(__tf_n, dyn, 256, 2u * (size_t)::tfuse_rt::dyn_share(smem)); if (__tf_e == cudaSuccess) *__tf_n *= 2; return __tf_e; }();
// BLOCK-NEXT: [&]() -> cudaError_t { const dim3 __tf_grid = (n / 256); void **__tf_args = (args); const void *__tf_f = (const void *)((void *)dyn); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(smem); ::tfuse_rt::dyn_shared_opt_in(__tf_f, 2u * (size_t)__tf_dsmem); void *__tf_argv[4]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = &__tf_dsmem; __tf_argv[2] = __tf_args[0]; __tf_argv[3] = __tf_args[1]; return cudaLaunchKernel(__tf_f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256, __tf_argv, 2u * (size_t)__tf_dsmem, 0); }();
// BLOCK:      [&]() -> cudaError_t { cudaLaunchConfig_t __tf_cfg = *(&cfg); const dim3 __tf_grid = __tf_cfg.gridDim; __tf_cfg.gridDim = ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_cfg.dynamicSmemBytes); ::tfuse_rt::dyn_shared_opt_in(dyn, 2u * (size_t)__tf_dsmem); __tf_cfg.dynamicSmemBytes = 2u * (size_t)__tf_dsmem; return cudaLaunchKernelEx(&__tf_cfg, dyn, __tf_ext0, __tf_dsmem, p, n); }();

// THREAD-LABEL: int main() {
// THREAD:      cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
// THREAD:      checkCudaErrors([&]() -> cudaError_t { cudaFuncAttributes *__tf_fa = (&attr); const cudaError_t __tf_e = cudaFuncGetAttributes(__tf_fa, k); if (__tf_e == cudaSuccess) __tf_fa->maxThreadsPerBlock = __tf_fa->maxThreadsPerBlock * 2 < 1024 ? __tf_fa->maxThreadsPerBlock * 2 : 1024; return __tf_e; }());
// THREAD-NEXT: checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, (((256) + 1) / 2), 0));
// THREAD-NEXT: checkCudaErrors([&]() -> cudaError_t { int *__tf_b = (&block); const int __tf_limit = (0); const cudaError_t __tf_e = cudaOccupancyMaxPotentialBlockSize(&grid, __tf_b, k, 0, (__tf_limit > 0 && __tf_limit < 1024 ? __tf_limit : 1024) / 2); if (__tf_e == cudaSuccess) *__tf_b *= 2; return __tf_e; }());
// THREAD-NEXT: checkCudaErrors([&]() -> cudaError_t { int *__tf_b = (&block); const int __tf_limit = (512); {{.*}}
// THREAD:      checkCudaErrors(cudaLaunchKernel((const void *)k, dim3(n / 256), ::tfuse_rt::coarsen_block(dim3(256), 0, 2u, "k", "{{.*}}"), args, 0, 0));
// THREAD-NEXT: TWICE(cudaLaunchCooperativeKernel((void *)k, n / 256, ::tfuse_rt::coarsen_block(256, 0, 2u, "k", "{{.*}}"), args));
// THREAD:      checkCudaErrors([&]() -> cudaError_t { cudaLaunchConfig_t __tf_cfg = *(&cfg); __tf_cfg.blockDim = ::tfuse_rt::coarsen_block(__tf_cfg.blockDim, 0, 2u, "k", "{{.*}}"); return cudaLaunchKernelEx(&__tf_cfg, k, p, n); }());
// THREAD:      checkCudaErrors(cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));

// XY:      void *__tf_argv[4]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = &__tf_ext1; __tf_argv[2] = __tf_args[0]; __tf_argv[3] = __tf_args[1]; return cudaLaunchKernel(__tf_f, ::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 1, 2u), dim3(256), __tf_argv, 0, 0); }());
// XY:      return cudaLaunchKernelEx(&__tf_cfg, k, __tf_ext0, __tf_ext1, p, n); }());

#include <cuda_runtime.h>
#include <cstdio>
#define checkCudaErrors(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) std::printf("error %d\n", (int)e_); } while (0)
#define TWICE(...) do { __VA_ARGS__; __VA_ARGS__; } while (0)

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

#pragma tfuse coarsen
__global__ void dyn(float *out, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? out[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

int main() {
  float *p = nullptr;
  int n = 1 << 20, nb = 0, grid = 0, block = 0;
  cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, k));
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, 256, 0));
  checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&grid, &block, k));
  checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&grid, &block, k, 0, 512));
  void *args[] = {&p, &n};
  checkCudaErrors(cudaLaunchKernel((const void *)k, dim3(n / 256), dim3(256), args, 0, 0));
  TWICE(cudaLaunchCooperativeKernel((void *)k, n / 256, 256, args));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / 256);
  cfg.blockDim = dim3(256);
  checkCudaErrors(cudaLaunchKernelEx(&cfg, k, p, n));

  size_t smem = 256 * sizeof(float);
  checkCudaErrors(cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  cudaFuncSetAttribute(dyn, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, dyn, 256, smem);
  cudaLaunchKernel((void *)dyn, n / 256, 256, args, smem, 0);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchKernelEx(&cfg, dyn, p, n);
  return 0;
}
