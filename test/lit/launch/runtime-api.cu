// The runtime's functions that take a kernel, with a coarsened kernel:
// a query (cudaFuncGetAttributes, the occupancy calculators) names the
// original, kept as k__tf_orig, so it answers as without tfuse (the block
// size and grid the program picks from it are the original's); a setter
// (cudaFuncSetCacheConfig, cudaFuncSetAttribute) sets the original and
// then the coarsened kernel, the original's error first; in block mode a
// dynamic shared-memory limit for one logical block becomes K shares for
// the coarsened kernel; cudaLaunchKernel, cudaLaunchCooperativeKernel and
// cudaLaunchKernelEx are launches rewritten as <<<>>> is (thread mode: the
// block divided; block mode: the grid rescaled, the launch attributes
// copied with a cluster dimension divided, and the original extents, and
// the share, passed first, through a new argument array for
// cudaLaunchKernel), each a dispatch that runs the original, as written,
// where the coarsened kernel cannot serve the launch's shape (its block's
// registers, K dynamic shares).  Inside a macro's argument the call is rewritten where
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
// RUN: %tfuse -factor 2,2 -dim x,y -mode thread %t.in.cu -o %t.txy.cu
// RUN: FileCheck %s --check-prefix=TXY < %t.txy.cu
// RUN: %nvcc-check %t.txy.cu

// BLOCK:      /* tfuse: the original 'k', which the runtime's queries describe; its launches run 'k' coarsened */
// BLOCK-NEXT: __global__ void k__tf_orig(float *out, int n) {
// BLOCK-LABEL: int main() {
// BLOCK:      [&]() -> cudaError_t { const auto __tf_v = (cudaFuncCachePreferL1); cudaError_t __tf_e = cudaFuncSetCacheConfig(k__tf_orig, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetCacheConfig(k, __tf_v); return __tf_e; }();
// BLOCK:      checkCudaErrors(cudaFuncGetAttributes(&attr, k__tf_orig));
// BLOCK-NEXT: checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig, 256, 0));
// BLOCK-NEXT: checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&grid, &block, k__tf_orig));
// BLOCK-NEXT: checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&grid, &block, k__tf_orig, 0, 512));
// BLOCK:      checkCudaErrors([&]() -> cudaError_t { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); const dim3 __tf_grid = (dim3(n / 256)); const dim3 __tf_block = (dim3(256)); void **__tf_args = (args); const void *__tf_f = (const void *)((const void *)k); if (!(::tfuse_rt::serves_threads(__tf_f, __tf_block, __tf_fb))) return cudaLaunchKernel((const void *)((const void *)k__tf_orig), __tf_grid, __tf_block, __tf_args, 0, 0); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); void *__tf_argv[3]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = __tf_args[0]; __tf_argv[2] = __tf_args[1]; return cudaLaunchKernel(__tf_f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_argv, 0, 0); }());
// BLOCK-NEXT: TWICE([&]() -> cudaError_t { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); const dim3 __tf_grid = (n / 256); const dim3 __tf_block = (256); {{.*}} return cudaLaunchCooperativeKernel((const void *)((void *)k__tf_orig), __tf_grid, __tf_block, __tf_args, 0, 0); {{.*}} return cudaLaunchCooperativeKernel(__tf_f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_argv, 0, 0); }());
// BLOCK:      checkCudaErrors([&]() -> cudaError_t { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); cudaLaunchConfig_t __tf_cfg = *(&cfg); if (!(::tfuse_rt::serves_threads(k, __tf_cfg.blockDim, __tf_fb))) return cudaLaunchKernelEx(&__tf_cfg, k__tf_orig, p, n); const dim3 __tf_grid = __tf_cfg.gridDim; __tf_cfg.gridDim = ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u); ::tfuse_rt::LaunchAttrs __tf_attrs; ::tfuse_rt::coarsen_cluster_attrs(__tf_cfg, __tf_attrs, 0, 2u, "k", "{{.*}}"); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); return cudaLaunchKernelEx(&__tf_cfg, k, __tf_ext0, p, n); }());
// BLOCK:      checkCudaErrors([&]() -> cudaError_t { const auto __tf_v = ((int)smem); cudaError_t __tf_e = cudaFuncSetAttribute(dyn__tf_orig, cudaFuncAttributeMaxDynamicSharedMemorySize, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, ::tfuse_rt::dyn_shared_limit(dyn, 2u * (size_t)::tfuse_rt::dyn_share(__tf_v))); return __tf_e; }());
// BLOCK-NEXT: [&]() -> cudaError_t { const auto __tf_v = (100); cudaError_t __tf_e = cudaFuncSetAttribute(dyn__tf_orig, cudaFuncAttributePreferredSharedMemoryCarveout, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(dyn, cudaFuncAttributePreferredSharedMemoryCarveout, __tf_v); return __tf_e; }();
// BLOCK-NEXT: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, dyn__tf_orig, 256, smem);
// BLOCK-NEXT: [&]() -> cudaError_t { static ::tfuse_rt::Fallback __tf_fb("dyn", "{{.*}}"); const dim3 __tf_grid = (n / 256); const dim3 __tf_block = (256); void **__tf_args = (args); const void *__tf_f = (const void *)((void *)dyn); const size_t __tf_smem = (smem); unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); if (!(::tfuse_rt::serves_threads(__tf_f, __tf_block, __tf_fb) && ::tfuse_rt::serves_shared(__tf_f, 2u * (size_t)__tf_dsmem, __tf_fb))) return cudaLaunchKernel((const void *)((void *)dyn__tf_orig), __tf_grid, __tf_block, __tf_args, __tf_smem, 0); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); ::tfuse_rt::dyn_shared_opt_in(__tf_f, 2u * (size_t)__tf_dsmem); void *__tf_argv[4]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = &__tf_dsmem; __tf_argv[2] = __tf_args[0]; __tf_argv[3] = __tf_args[1]; return cudaLaunchKernel(__tf_f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_argv, 2u * (size_t)__tf_dsmem, 0); }();
// BLOCK:      [&]() -> cudaError_t { static ::tfuse_rt::Fallback __tf_fb("dyn", "{{.*}}"); cudaLaunchConfig_t __tf_cfg = *(&cfg); unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_cfg.dynamicSmemBytes); if (!(::tfuse_rt::serves_threads(dyn, __tf_cfg.blockDim, __tf_fb) && ::tfuse_rt::serves_shared(dyn, 2u * (size_t)__tf_dsmem, __tf_fb))) return cudaLaunchKernelEx(&__tf_cfg, dyn__tf_orig, p, n); const dim3 __tf_grid = __tf_cfg.gridDim; __tf_cfg.gridDim = ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u); ::tfuse_rt::LaunchAttrs __tf_attrs; ::tfuse_rt::coarsen_cluster_attrs(__tf_cfg, __tf_attrs, 0, 2u, "dyn", "{{.*}}"); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); ::tfuse_rt::dyn_shared_opt_in(dyn, 2u * (size_t)__tf_dsmem); __tf_cfg.dynamicSmemBytes = 2u * (size_t)__tf_dsmem; return cudaLaunchKernelEx(&__tf_cfg, dyn, __tf_ext0, __tf_dsmem, p, n); }();

// THREAD-LABEL: int main() {
// THREAD:      cudaFuncSetCacheConfig(k__tf_orig, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetCacheConfig(k, __tf_v);
// THREAD:      checkCudaErrors(cudaFuncGetAttributes(&attr, k__tf_orig));
// THREAD-NEXT: checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig, 256, 0));
// THREAD-NEXT: checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&grid, &block, k__tf_orig));
// THREAD-NEXT: checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&grid, &block, k__tf_orig, 0, 512));
// THREAD:      checkCudaErrors(cudaLaunchKernel((const void *)k, dim3(n / 256), ::tfuse_rt::coarsen_block(dim3(256), 0, 2u, "k", "{{.*}}"), args, 0, 0));
// THREAD-NEXT: TWICE(cudaLaunchCooperativeKernel((void *)k, n / 256, ::tfuse_rt::coarsen_block(256, 0, 2u, "k", "{{.*}}"), args));
// THREAD:      checkCudaErrors([&]() -> cudaError_t { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); cudaLaunchConfig_t __tf_cfg = *(&cfg); if (::tfuse_rt::serves_block(__tf_cfg.blockDim, 0, 2u, false, __tf_fb)) { __tf_cfg.blockDim = ::tfuse_rt::coarsen_block(__tf_cfg.blockDim, 0, 2u, "k", "{{.*}}"); return cudaLaunchKernelEx(&__tf_cfg, k, p, n); } return cudaLaunchKernelEx(&__tf_cfg, k__tf_orig, p, n); }());
// THREAD:      cudaFuncSetAttribute(dyn__tf_orig, cudaFuncAttributeMaxDynamicSharedMemorySize, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, __tf_v); return __tf_e; }());

// XY:      void *__tf_argv[4]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = &__tf_ext1; __tf_argv[2] = __tf_args[0]; __tf_argv[3] = __tf_args[1]; return cudaLaunchKernel(__tf_f, ::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 1, 2u), __tf_block, __tf_argv, 0, 0); }());
// XY:      ::tfuse_rt::coarsen_cluster_attrs(__tf_cfg, __tf_attrs, 0, 2u, "k", "{{.*}}"); ::tfuse_rt::coarsen_cluster_attrs(__tf_cfg, __tf_attrs, 1, 2u, "k", "{{.*}}"); unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0); unsigned int __tf_ext1 = ::tfuse_rt::grid_extent(__tf_grid, 1); return cudaLaunchKernelEx(&__tf_cfg, k, __tf_ext0, __tf_ext1, p, n); }());

// Thread mode along two dimensions: the queries name the original as in one.
// TXY: checkCudaErrors(cudaFuncGetAttributes(&attr, k__tf_orig));
// TXY-NEXT: checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig, 256, 0));

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
