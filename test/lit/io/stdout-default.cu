// Without -o the result goes to standard output, and `-o -` means the
// same; both are the text -o FILE writes.
// RUN: %tfuse %s > %t.stdout.cu
// RUN: %tfuse %s -o - > %t.dash.cu
// RUN: %tfuse %s -o %t.file.cu
// RUN: diff %t.stdout.cu %t.file.cu
// RUN: diff %t.dash.cu %t.file.cu
// RUN: FileCheck %s < %t.stdout.cu

// CHECK: {{^}}/* tfuse: coarsened by 2, block mode along x */
// CHECK-NEXT: {{^}}__global__ void k(unsigned int __tf_grid_x, float *out) {

#pragma tfuse coarsen
__global__ void k(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
