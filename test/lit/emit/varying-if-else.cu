// A varying `if` is predicated: each copy's condition goes into a const
// bool (__tf_pN_r, and __tf_qN_r for the else branch), each branch runs
// once if any copy takes it, and inside it each copy's store is guarded by
// its own predicate.  A copy past the grid never takes a branch.  (The
// branches store to different places; one place would be a select, see
// varying-if-select.cu.)
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      const bool __tf_p1_0 = (in[i_0] > 0.0f);
// CHECK-NEXT: const bool __tf_p1_1 = __tf_ok_1 && (in[i_1] > 0.0f);
// CHECK-NEXT: const bool __tf_q1_0 = !__tf_p1_0;
// CHECK-NEXT: const bool __tf_q1_1 = __tf_ok_1 && !__tf_p1_1;
// CHECK-NEXT: if (__tf_p1_0 || __tf_p1_1) {
// CHECK-NEXT:   if (__tf_p1_0) out[i_0] = 1.0f;
// CHECK-NEXT:   if (__tf_p1_1) out[i_1] = 1.0f;
// CHECK-NEXT: }
// CHECK-NEXT: if (__tf_q1_0 || __tf_q1_1) {
// CHECK-NEXT:   if (__tf_q1_0) out[n + i_0] = -1.0f;
// CHECK-NEXT:   if (__tf_q1_1) out[n + i_1] = -1.0f;
// CHECK-NEXT: }
// CHECK-NOT:  else

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0.0f) {
    out[i] = 1.0f;
  } else {
    out[n + i] = -1.0f;
  }
}
