// A kernel parameter with a default argument: the grid-extent parameter
// goes first, so the default stays last (legal C++) and a launch that
// relies on the default passes the extent first and n = 4 by default.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(unsigned int __tf_grid_x, float *out, int n = 4) {
// CHECK-LABEL: void host(float *p) {
// CHECK-NEXT: { const dim3 __tf_grid = (8); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }

#pragma tfuse coarsen
__global__ void k(float *out, int n = 4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

void host(float *p) {
  k<<<8, 32>>>(p);
}
