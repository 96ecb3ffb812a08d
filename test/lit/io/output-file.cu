// -o FILE writes the coarsened file there and nothing on stdout; the input
// is not touched.
// REQUIRES: nvcc
// RUN: rm -f %t.cu && cp %s %t.orig.cu
// RUN: %tfuse %s -o %t.cu > %t.stdout
// RUN: count 0 < %t.stdout
// RUN: cmp %s %t.orig.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: {{^}}/* Coarsened by tfuse {{[0-9.]+}} from {{.*}}output-file.cu; edit the original, not this file. */
// CHECK: {{^}}/* tfuse: coarsened by 2, block mode along x */

#pragma tfuse coarsen
__global__ void k(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
