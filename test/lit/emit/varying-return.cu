// A varying return (`if (i >= n) return;`) becomes a per-copy live flag:
// the copy's flag is cleared instead of returning, and the copy's later
// loads and stores are guarded by it, so no copy touches memory its logical
// thread would not have touched.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      bool __tf_live_0 = true;
// CHECK-NEXT: bool __tf_live_1 = true;
// CHECK:      const bool __tf_p1_0 = (i_0 >= n);
// CHECK-NEXT: const bool __tf_p1_1 = (i_1 >= n);
// CHECK-NEXT: if (__tf_p1_0 || __tf_p1_1) {
// CHECK-NEXT:   if (__tf_p1_0) __tf_live_0 = false;
// CHECK-NEXT:   if (__tf_p1_1) __tf_live_1 = false;
// CHECK-NEXT: }
// CHECK-NEXT: float v_0 = TFUSE_GUARD(__tf_live_0, in[i_0]);
// CHECK-NEXT: float v_1 = TFUSE_GUARD(__tf_live_1, in[i_1]);
// CHECK-NEXT: if (__tf_live_0) out[i_0] = v_0 * v_0;
// CHECK-NEXT: if (__tf_live_1) out[i_1] = v_1 * v_1;
// CHECK-NOT:  return

#pragma tfuse coarsen mode(thread)
__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  out[i] = v * v;
}
