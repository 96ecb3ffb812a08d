// -i rewrites the input file in place with the same text -o would write,
// and prints nothing.  (The test works on a copy of this file.)
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/in-place.cu
// RUN: %tfuse %t.dir/in-place.cu -o %t.expected.cu
// RUN: %tfuse -i %t.dir/in-place.cu > %t.stdout
// RUN: count 0 < %t.stdout
// RUN: diff %t.expected.cu %t.dir/in-place.cu
// RUN: FileCheck %s < %t.dir/in-place.cu

// CHECK: {{^}}/* tfuse: coarsened by 2, block mode along x */
// CHECK-NEXT: {{^}}__global__ void k(unsigned int __tf_grid_x, float *out) {

#pragma tfuse coarsen
__global__ void k(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
