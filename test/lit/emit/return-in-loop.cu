// A return inside a loop that is replicated per copy clears that copy's
// live flag and jumps past the copy's replica (goto to a label right after
// it); the statements after the loop are guarded by the live flags.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      if (__tf_live_0) for (int j_0 = i_0; j_0 < n; j_0 += 64) {
// CHECK-NEXT:   if (in[j_0] < 0.0f)
// CHECK-NEXT:     do { __tf_live_0 = false; goto [[L0:__tf_ret[0-9]+_0]]; } while (0);
// CHECK-NEXT:   out[j_0] = in[j_0];
// CHECK-NEXT: }
// CHECK-NEXT: [[L0]]:;
// CHECK-NEXT: if (__tf_ok_1 && __tf_live_1) for (int j_1 = i_1; j_1 < n; j_1 += 64) {
// CHECK-NEXT:   if (in[j_1] < 0.0f)
// CHECK-NEXT:     do { __tf_live_1 = false; goto [[L1:__tf_ret[0-9]+_1]]; } while (0);
// CHECK-NEXT:   out[j_1] = in[j_1];
// CHECK-NEXT: }
// CHECK-NEXT: [[L1]]:;
// CHECK-NEXT: if (__tf_live_0) out[i_0] += 1.0f;
// CHECK-NEXT: if (__tf_ok_1 && __tf_live_1) out[i_1] += 1.0f;
// CHECK-NOT:  return

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = i; j < n; j += 64) {
    if (in[j] < 0.0f)
      return;
    out[j] = in[j];
  }
  out[i] += 1.0f;
}
