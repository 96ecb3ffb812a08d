// dim3(...) temporaries, with the shared-memory size and the stream: only
// the grid is replaced; block, shared-memory size and stream are kept as
// written, in order.  Also without a stream (three launch arguments).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: void host(float *p, int n, cudaStream_t s) {
// CHECK-NEXT: { const dim3 __tf_grid = (dim3(n / 64, 1, 1)); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), dim3(64, 1, 1), 64 * sizeof(float), s>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: { const dim3 __tf_grid = (dim3(n / 64)); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), dim3(64), 0>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: }

#pragma tfuse coarsen
__global__ void k(float *out) {
  extern __shared__ float unused[];
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

void host(float *p, int n, cudaStream_t s) {
  k<<<dim3(n / 64, 1, 1), dim3(64, 1, 1), 64 * sizeof(float), s>>>(p);
  k<<<dim3(n / 64), dim3(64), 0>>>(p);
}
