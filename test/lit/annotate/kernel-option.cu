// -kernel NAME coarsens a kernel that has no pragma, with the default or
// command-line parameters, in addition to the annotated ones; kernels
// neither annotated nor named stay as they are, and so do their launches.
// (With no pragma line to replace, no "coarsened by" comment is added.)
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -kernel picked %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* tfuse: coarsened by 4, block mode along x */
// CHECK-NEXT: __global__ void marked(unsigned int __tf_grid_x, float *o) {
// CHECK:      {{^}}__global__ void picked(unsigned int __tf_grid_x, float *o) {
// CHECK-NEXT:   /* tfuse: this thread runs logical blocks blockIdx.x * 2 + r, r = 0..1 */
// CHECK:      {{^}}__global__ void left(float *o) { o[blockIdx.x] = 3.0f; }
// CHECK-LABEL: void host(float *p) {
// CHECK-NEXT: { const dim3 __tf_grid = (8); marked<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: { const dim3 __tf_grid = (8); picked<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: left<<<8, 32>>>(p);

#pragma tfuse coarsen factor(4)
__global__ void marked(float *o) { o[blockIdx.x] = 1.0f; }

__global__ void picked(float *o) { o[blockIdx.x] = 2.0f; }

__global__ void left(float *o) { o[blockIdx.x] = 3.0f; }

void host(float *p) {
  marked<<<8, 32>>>(p);
  picked<<<8, 32>>>(p);
  left<<<8, 32>>>(p);
}
