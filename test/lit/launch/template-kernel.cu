// A kernel template is coarsened once (the pragma stands before its
// template line); its launches, with explicit template arguments
// (k<float><<<...>>>) or deduced ones, are rewritten alike.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* tfuse: coarsened by 2, block mode along x */
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: __global__ void k(unsigned int __tf_grid_x, T *out, int n) {
// CHECK-LABEL: void host(float *p, double *q, int n) {
// CHECK-NEXT: { const dim3 __tf_grid = (n); k<float><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, n); }
// CHECK-NEXT: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128>>>(::tfuse_rt::grid_extent(__tf_grid, 0), q, n); }
// CHECK-NEXT: }

#pragma tfuse coarsen
template <typename T>
__global__ void k(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = out[i] + out[i];
}

void host(float *p, double *q, int n) {
  k<float><<<n, 128>>>(p, n);
  k<<<n, 128>>>(q, n);
}
