// A per-copy initializer that loads through a copy-dependent address is
// wrapped in TFUSE_GUARD(p, e) for copies that may be dead, so a copy past
// the grid reads nothing (it gets a zero) while copy 0, always live, loads
// directly.  The prelude defines the macro.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: #define TFUSE_GUARD(p, e)
// CHECK-LABEL: __global__ void k(
// CHECK:      int j_0 = idx[i_0];
// CHECK-NEXT: int j_1 = TFUSE_GUARD(__tf_ok_1, idx[i_1]);
// CHECK-NEXT: float v_0 = in[j_0] * 2.0f;
// CHECK-NEXT: float v_1 = TFUSE_GUARD(__tf_ok_1, in[j_1] * 2.0f);
// CHECK-NEXT: out[i_0] = v_0;
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = v_1;

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, const int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  float v = in[j] * 2.0f;
  out[i] = v;
}
