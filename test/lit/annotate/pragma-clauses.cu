// The pragma's clauses set the kernel's parameters: factor(4) dim(y)
// mode(thread) mapping(consecutive) gives four copies of threadIdx.y * 4 + r;
// the pragma line itself becomes a comment naming what was done.  Without
// clauses the defaults apply: factor 2, block mode along x.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* tfuse: coarsened by 4, thread mode along y, consecutive */
// CHECK-NEXT: __global__ void a(float *o) {
// CHECK-NEXT:   /* tfuse: this thread runs logical threads threadIdx.y * 4 + r, r = 0..3 */
// CHECK-NEXT:   o[(threadIdx.y * 4) * 64 + threadIdx.x] = 1.0f;
// CHECK-NEXT:   o[(threadIdx.y * 4 + 1) * 64 + threadIdx.x] = 1.0f;
// CHECK-NEXT:   o[(threadIdx.y * 4 + 2) * 64 + threadIdx.x] = 1.0f;
// CHECK-NEXT:   o[(threadIdx.y * 4 + 3) * 64 + threadIdx.x] = 1.0f;
// CHECK-NEXT: }
// CHECK:      /* tfuse: coarsened by 2, block mode along x */
// CHECK-NEXT: __global__ void b(unsigned int __tf_grid_x, float *o) {
// CHECK-NOT:  #pragma tfuse

#pragma tfuse coarsen factor(4) dim(y) mode(thread) mapping(consecutive)
__global__ void a(float *o) {
  o[threadIdx.y * 64 + threadIdx.x] = 1.0f;
}

#pragma tfuse coarsen
__global__ void b(float *o) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}
