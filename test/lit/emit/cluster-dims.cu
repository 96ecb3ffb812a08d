// Block mode merges K blocks along a dimension, so the grid of merged
// blocks is 1/K of the original's and must still be a multiple of the
// kernel's cluster: `__cluster_dims__(x, y, z)` along a coarsened dimension
// becomes c / K where K divides c (the clusters hold the original's logical
// blocks), else 1; an extent that is not a literal becomes that
// expression; the other dimensions are kept.  Thread mode keeps the
// cluster (the grid is the original's) and divides `__launch_bounds__`'s
// thread count by K, its other arguments (blocks per multiprocessor,
// blocks per cluster) and `__maxnreg__` as written; block mode keeps them
// all (each block keeps its threads).  The kernel kept as k__tf_orig (a
// query of it) keeps the original's cluster.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 8 %t.in.cu -o %t.block8.cu
// RUN: FileCheck %s --check-prefix=BLOCK8 < %t.block8.cu
// RUN: %nvcc-check %t.block8.cu
// RUN: %tfuse -factor 2,2 -dim x,y %t.in.cu -o %t.xy.cu
// RUN: FileCheck %s --check-prefix=XY < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// BLOCK: __global__ void __cluster_dims__(2, 2, 1) __launch_bounds__(256, 2) pair(unsigned int __tf_grid_x, float *out, int n) {
// BLOCK: __global__ void __cluster_dims__(4, 2, 1) __launch_bounds__(256, 2) pair__tf_orig(float *out, int n) {
// BLOCK: __global__ void __launch_bounds__(256, 2, 8) bounded(unsigned int __tf_grid_x, float *out, int n) {
// BLOCK: __global__ void __cluster_dims__(((C) % 2 == 0 ? (C) / 2 : 1)) __maxnreg__(64) wide(unsigned int __tf_grid_x, float *out, int n) {
// BLOCK8: __global__ void __cluster_dims__(1, 2, 1) __launch_bounds__(256, 2) pair(unsigned int __tf_grid_x, float *out, int n) {
// BLOCK8: __global__ void __cluster_dims__(((C) % 8 == 0 ? (C) / 8 : 1)) __maxnreg__(64) wide(unsigned int __tf_grid_x, float *out, int n) {
// XY: __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256, 2) pair(unsigned int __tf_grid_x, unsigned int __tf_grid_y, float *out, int n) {
// THREAD: __global__ void __cluster_dims__(4, 2, 1) __launch_bounds__(128, 2) pair(float *out, int n) {
// THREAD: __global__ void __cluster_dims__(4, 2, 1) __launch_bounds__(256, 2) pair__tf_orig(float *out, int n) {
// THREAD: __global__ void __launch_bounds__(128, 2, 8) bounded(float *out, int n) {
// THREAD: __global__ void __cluster_dims__(C) __maxnreg__(64) wide(float *out, int n) {

#include <cuda_runtime.h>

#pragma tfuse coarsen
__global__ void __cluster_dims__(4, 2, 1) __launch_bounds__(256, 2) pair(float *out, int n) {
  int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)i;
}

#pragma tfuse coarsen
__global__ void __launch_bounds__(256, 2, 8) bounded(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3.0f * i;
}

#pragma tfuse coarsen
template <int C>
__global__ void __cluster_dims__(C) __maxnreg__(64) wide(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * i;
}

int main() {
  float *p = nullptr;
  int n = 1 << 16, nb = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, pair, 256, 0);
  pair<<<dim3(n / 256 / 4, 4), 256>>>(p, n);
  wide<4><<<n / 256, 256>>>(p, n);
  bounded<<<n / 256, 256>>>(p, n);
  return nb;
}
