// The runtime's queries of a coarsened kernel answer as without tfuse: each
// names the original, kept once beside the coarsened kernel as k__tf_orig
// (-check's original, a function pointer's original too; -factor auto: the
// original variant k__tf_k1), in C and template forms (a cast of the
// kernel, a WithFlags variant): cudaFuncGetAttributes,
// cudaFuncGetParamInfo, cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// cudaOccupancyMaxPotentialBlockSize[VariableSMem][WithFlags],
// cudaOccupancyAvailableDynamicSMemPerBlock,
// cudaOccupancyMaxPotentialClusterSize, cudaOccupancyMaxActiveClusters.  A
// block size the program picks from them is the original's.  A setter sets
// the original, then the coarsened kernel: in block mode a required
// cluster extent along a coarsened dimension is divided as __cluster_dims__
// is (c / K where K divides c, else 1), the other dimensions as written;
// thread mode passes it as written (the grid is the original's).
// cudaFuncGetName in thread mode is as written (the coarsened kernel keeps
// the original's name and parameters).
// REQUIRES: nvcc
// RUN: sed 's#^// PTR ##; s#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefixes=ALL,BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: sed 's#^// PTR ##; s#^// NAME ##; s#^//.*##' %s > %t.name.cu
// RUN: %tfuse -factor 2 -mode thread %t.name.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefixes=ALL,THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2,2 -dim x,y %t.in.cu -o %t.xy.cu
// RUN: FileCheck %s --check-prefixes=ALL,XY < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu
// RUN: sed 's#^//.*##' %s > %t.noptr.cu
// RUN: %tfuse -factor 2 -check %t.noptr.cu -o %t.check.cu
// RUN: FileCheck %s --check-prefixes=ALL,CHK < %t.check.cu
// RUN: %nvcc-check %t.check.cu
// RUN: %tfuse -factor auto -candidates 2 -mode thread %t.noptr.cu -o %t.auto.cu
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.cu
// RUN: %nvcc-check %t.auto.cu

// The original is kept once per kernel.
// CHK: /* tfuse -check: the original 'k', run first and compared with it when TFUSE_{{[A-Z]+}}=1 */
// ALL-COUNT-1: {{^}}__global__ void k__tf_orig(float *out, int n) {
// ALL-NOT: {{^}}__global__ void k__tf_orig(
// BLOCK: /* tfuse: the original 'ptr', which function pointers hold; a launch through one runs 'ptr' coarsened */
// ALL-LABEL: int main() {
// ALL:      cudaFuncGetAttributes(&attr, (const void *)k__tf_orig);
// ALL-NEXT: cudaFuncGetParamInfo((const void *)k__tf_orig, 1, &off, &size);
// ALL-NEXT: cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, k__tf_orig, 256, 0, cudaOccupancyDefault);
// ALL-NEXT: cudaOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, k__tf_orig, 0, 0, cudaOccupancyDefault);
// ALL-NEXT: cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, k__tf_orig, smem_of);
// ALL-NEXT: cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&grid, &block, k__tf_orig, smem_of, 0, cudaOccupancyDefault);
// ALL-NEXT: cudaOccupancyAvailableDynamicSMemPerBlock(&avail, k__tf_orig, nb, block);
// ALL:      cudaOccupancyMaxPotentialClusterSize(&cl, k__tf_orig, &cfg);
// ALL-NEXT: cudaOccupancyMaxActiveClusters(&cl, (void *)k__tf_orig, &cfg);
// BLOCK-NEXT: [&]() -> cudaError_t { const auto __tf_v = (4); cudaError_t __tf_e = cudaFuncSetAttribute(k__tf_orig, cudaFuncAttributeRequiredClusterWidth, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterWidth, (int)::tfuse_rt::coarsen_cluster((unsigned int)__tf_v, 2u)); return __tf_e; }();
// BLOCK-NEXT: [&]() -> cudaError_t { const auto __tf_v = (1); cudaError_t __tf_e = cudaFuncSetAttribute(k__tf_orig, cudaFuncAttributeRequiredClusterHeight, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterHeight, __tf_v); return __tf_e; }();
// XY-NEXT: cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterWidth, (int)::tfuse_rt::coarsen_cluster((unsigned int)__tf_v, 2u)); return __tf_e; }();
// XY-NEXT: cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterHeight, (int)::tfuse_rt::coarsen_cluster((unsigned int)__tf_v, 2u)); return __tf_e; }();
// XY-NEXT: cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterDepth, __tf_v); return __tf_e; }();
// THREAD-NEXT: [&]() -> cudaError_t { const auto __tf_v = (4); cudaError_t __tf_e = cudaFuncSetAttribute(k__tf_orig, cudaFuncAttributeRequiredClusterWidth, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterWidth, __tf_v); return __tf_e; }();
// THREAD:      cudaFuncGetName(&name, k);
// BLOCK:       cudaOccupancyMaxPotentialBlockSize(&grid, &block, ptr__tf_orig);
// THREAD:      cudaOccupancyMaxPotentialBlockSize(&grid, &block, ptr__tf_orig);

// AUTO:      cudaFuncGetAttributes(&attr, (const void *)k__tf_k1);
// AUTO-NEXT: cudaFuncGetParamInfo((const void *)k__tf_k1, 1, &off, &size);
// AUTO-NEXT: cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, k__tf_k1, 256, 0, cudaOccupancyDefault);
// AUTO:      cudaOccupancyMaxActiveClusters(&cl, (void *)k__tf_k1, &cfg);
// AUTO-NEXT: __tf_e = cudaFuncSetAttribute(k__tf_k1, cudaFuncAttributeRequiredClusterWidth, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k__tf_tx2, cudaFuncAttributeRequiredClusterWidth, __tf_v); return __tf_e; }();

#include <cuda_runtime.h>
#include <cstdio>

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)blockDim.x;
}

// PTR #pragma tfuse coarsen
// PTR __global__ void ptr(float *out, int n) {
// PTR   int i = blockIdx.x * blockDim.x + threadIdx.x;
// PTR   if (i < n) out[i] = 2.0f;
// PTR }

static size_t smem_of(int block) { return (size_t)block * 4; }

int main() {
  float *p = nullptr;
  int n = 1 << 20, nb = 0, grid = 0, block = 0, cl = 0;
  size_t avail = 0, off = 0, size = 0;
  const char *name = nullptr;
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, (const void *)k);
  cudaFuncGetParamInfo((const void *)k, 1, &off, &size);
  cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, k, 256, 0, cudaOccupancyDefault);
  cudaOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, k, 0, 0, cudaOccupancyDefault);
  cudaOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, k, smem_of);
  cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&grid, &block, k, smem_of, 0, cudaOccupancyDefault);
  cudaOccupancyAvailableDynamicSMemPerBlock(&avail, k, nb, block);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / block);
  cfg.blockDim = dim3(block);
  cudaOccupancyMaxPotentialClusterSize(&cl, k, &cfg);
  cudaOccupancyMaxActiveClusters(&cl, (void *)k, &cfg);
  cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterWidth, 4);
  cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterHeight, 1);
  cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterDepth, 1);
// NAME   cudaFuncGetName(&name, k);
  k<<<n / block, block>>>(p, n);
// PTR   void (*f)(float *, int) = ptr;
// PTR   cudaOccupancyMaxPotentialBlockSize(&grid, &block, ptr);
// PTR   f<<<n / block, block>>>(p, n);
  std::printf("%d %d %d %zu %zu %zu %p\n", nb, grid, block, avail, off, size, (const void *)name);
  return 0;
}
