// Block mode, grid and block given as integer expressions: the grid
// expression is evaluated once into a dim3, the launch uses the grid
// rounded up to K logical blocks per block, and the original extent is
// passed as the extra last argument.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: void host(float *p, int n) {
// CHECK-NEXT: { const dim3 __tf_grid = ((n + 255) / 256); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 256>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, n); }
// CHECK-NEXT: }

#pragma tfuse coarsen factor(4)
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.0f;
}

void host(float *p, int n) {
  k<<<(n + 255) / 256, 256>>>(p, n);
}
