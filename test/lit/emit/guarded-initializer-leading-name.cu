// A guarded initializer whose text starts with a renamed name or a
// substituted blockIdx.x must still be wrapped whole:
//   float x_1 = TFUSE_GUARD(__tf_ok_1, i_1 + in[i_1]);
// Expected to fail: tfuse drops the "TFUSE_GUARD(__tf_ok_1, " prefix when
// it falls on the same offset as the rename of the first token, and emits
//   float x_1 = i_1 + in[i_1]);
// which neither compiles nor guards the dead copy's load.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      float x_0 = i_0 + in[i_0];
// CHECK-NEXT: float x_1 = TFUSE_GUARD(__tf_ok_1, i_1 + in[i_1]);
// CHECK-NEXT: float y_0 = (blockIdx.x * 2) + in[i_0];
// CHECK-NEXT: float y_1 = TFUSE_GUARD(__tf_ok_1, (blockIdx.x * 2 + 1) + in[i_1]);
// CHECK-NEXT: int v_0 = i_0 < n ? in[i_0] : 0;
// CHECK-NEXT: int v_1 = TFUSE_GUARD(__tf_ok_1, i_1 < n ? in[i_1] : 0);

#pragma tfuse coarsen
__global__ void k(float *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i + in[i];
  float y = blockIdx.x + in[i];
  int v = i < n ? in[i] : 0;
  out[i] = x + y + v;
}
