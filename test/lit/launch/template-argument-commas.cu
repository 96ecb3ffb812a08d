// A comma between a template's arguments (`k<float, 3>`, `grid_of<0, 1>`)
// is not one of a call's or a launch configuration's: the parse's argument
// extents, not the text, tell where each argument of the runtime's
// functions, of `<<<...>>>` and of the launch ends (MC_EstimatePiInlineQ's
// `cudaFuncGetAttributes(&fa, initRNG<A, B>)` lost its `, B>`). Nested
// templates (`Id<Id<float>::type>::type`), a `>` in a constant argument
// and a `>>` token stay whole, also where a query is routed to the kept
// original (`k__tf_orig<float, 3>`); both modes, each output compiled by nvcc.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -all-kernels -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -all-kernels -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu

// THREAD-LABEL: void run(T *p, int n) {
// THREAD:      cudaFuncGetAttributes(&fa, k__tf_orig<T, 2>);
// THREAD:      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig<T, (3 > 2) ? 1 : 2>, 64, 0);
// THREAD-LABEL: int main() {
// THREAD:      cudaFuncGetAttributes(&fa, k__tf_orig<float, 3>);
// THREAD:      cudaFuncGetAttributes(&fa, k__tf_orig<Id<Id<float>::type>::type, (3 > 2) ? 1 : 2>);
// THREAD:      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig<float, 3>, pick<64, 32>(), 0);
// THREAD:      cudaLaunchKernel((void *)k<float, 3>, grid_of<0, 1>(n, 64), ::tfuse_rt::coarsen_block(64, 0, 2u, "k", "{{.*}}"), args, 0, 0);
// THREAD:      k<float, 3><<<grid_of<0, 1>(n, 64), ::tfuse_rt::coarsen_block(pick<64, 32>(), 0, 2u, "k", "{{.*}}")>>>(static_cast<Id<float>::type *>(d), Box<int, 2>{{[{][{]}}n, 0}}.v[0]);
// THREAD:      k<Id<Id<float>::type>::type, 2><<<dim3(grid_of<0, 1>(n, 64), 1), ::tfuse_rt::coarsen_block(64 >> 0, 0, 2u, "k", "{{.*}}")>>>(d, pick<1, 2>() > 0 ? n : 0);
// BLOCK-LABEL: void run(T *p, int n) {
// BLOCK:      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig<T, (3 > 2) ? 1 : 2>, 64, 0);
// BLOCK-LABEL: int main() {
// BLOCK:      cudaFuncGetAttributes(&fa, k__tf_orig<float, 3>);
// BLOCK:      cudaFuncGetAttributes(&fa, k__tf_orig<Id<Id<float>::type>::type, (3 > 2) ? 1 : 2>);
// BLOCK:      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig<float, 3>, pick<64, 32>(), 0);
// BLOCK:      const dim3 __tf_grid = (grid_of<0, 1>(n, 64)); const dim3 __tf_block = (64); void **__tf_args = (args); const void *__tf_f = (const void *)((void *)k<float, 3>); if (!(::tfuse_rt::serves_threads(__tf_f, __tf_block, __tf_fb))) return cudaLaunchKernel((const void *)((void *)k__tf_orig<float, 3>), __tf_grid, __tf_block, __tf_args, 0, 0);
// BLOCK:      { const dim3 __tf_grid = (grid_of<0, 1>(n, 64)); k<float, 3><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), pick<64, 32>()>>>(::tfuse_rt::grid_extent(__tf_grid, 0), static_cast<Id<float>::type *>(d), Box<int, 2>{{[{][{]}}n, 0}}.v[0]); }
// BLOCK:      { const dim3 __tf_grid = (dim3(grid_of<0, 1>(n, 64), 1)); k<Id<Id<float>::type>::type, 2><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64 >> 0>>>(::tfuse_rt::grid_extent(__tf_grid, 0), d, pick<1, 2>() > 0 ? n : 0); }

#include <cuda_runtime.h>
template <typename T, int N> struct Box { T v[N]; };
template <typename T> struct Id { typedef T type; };
template <int A, int B> constexpr int pick() { return A; }
template <int S, int T> int grid_of(int n, int b) { return (n + b - 1) / b + S - S * T; }

template <typename A, int B>
__global__ void k(A *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (A)(i * B);
}

template <typename T>
void run(T *p, int n) {
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, k<T, 2>);
  int nb;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k<T, (3 > 2) ? 1 : 2>, 64, 0);
}

int main() {
  float *d;
  int n = 256;
  cudaMalloc(&d, n * sizeof(float));
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, k<float, 3>);
  cudaFuncGetAttributes(&fa, k<Id<Id<float>::type>::type, (3 > 2) ? 1 : 2>);
  int nb;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k<float, 3>, pick<64, 32>(), 0);
  void *args[] = {&d, &n};
  cudaLaunchKernel((void *)k<float, 3>, grid_of<0, 1>(n, 64), 64, args, 0, 0);
  k<float, 3><<<grid_of<0, 1>(n, 64), pick<64, 32>()>>>(static_cast<Id<float>::type *>(d), Box<int, 2>{{n, 0}}.v[0]);
  k<Id<Id<float>::type>::type, 2><<<dim3(grid_of<0, 1>(n, 64), 1), 64 >> 0>>>(d, pick<1, 2>() > 0 ? n : 0);
  run(d, n);
  cudaDeviceSynchronize();
  return 0;
}
