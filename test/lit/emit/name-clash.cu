// Copy names never capture a name already in the file: when `i_1` is taken
// by the user, the copies of `i` are named i__tf0, i__tf1 instead, while
// the copies of other variables keep the short form.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      int i_1 = 7;
// CHECK-NEXT: int i__tf0 = (blockIdx.x * 2) * blockDim.x + threadIdx.x + i_1;
// CHECK-NEXT: int i__tf1 = (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x + i_1;
// CHECK-NEXT: float v_0 = (float)i__tf0;
// CHECK-NEXT: float v_1 = (float)i__tf1;
// CHECK-NEXT: out[i__tf0] = v_0;
// CHECK-NEXT: if (__tf_ok_1) out[i__tf1] = v_1;

#pragma tfuse coarsen
__global__ void k(float *out) {
  int i_1 = 7;
  int i = blockIdx.x * blockDim.x + threadIdx.x + i_1;
  float v = (float)i;
  out[i] = v;
}
