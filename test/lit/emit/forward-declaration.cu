// Block mode adds the grid-extent parameter to the kernel's prototypes as
// well as to its definition, so a launch placed between the two still
// matches the kernel it calls.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      {{^}}__global__ void k(unsigned int __tf_grid_x, float *out, int n);
// CHECK-EMPTY:
// CHECK-NEXT: void launch(float *p, int n) { { const dim3 __tf_grid = (n / 64); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, n); } }
// CHECK:      /* tfuse: coarsened by 2, block mode along x */
// CHECK-NEXT: __global__ void k(unsigned int __tf_grid_x, float *out, int n) {

__global__ void k(float *out, int n);

void launch(float *p, int n) { k<<<n / 64, 64>>>(p, n); }

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.0f;
}
