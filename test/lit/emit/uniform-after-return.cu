// After a varying return, a uniform store or load runs once but only while
// some copy is still live (the live flags OR-ed), so a physical thread
// whose copies have all returned touches no memory.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      if (__tf_p1_1) __tf_live_1 = false;
// CHECK-NEXT: }
// CHECK-NEXT: if (__tf_live_0 || __tf_live_1) out[n] = 5.0f;
// CHECK-NEXT: float u = TFUSE_GUARD(__tf_live_0 || __tf_live_1, out[n + 1]);
// CHECK-NEXT: if (__tf_live_0) out[i_0] = u;
// CHECK-NEXT: if (__tf_live_1) out[i_1] = u;

#pragma tfuse coarsen mode(thread)
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[n] = 5.0f;
  float u = out[n + 1];
  out[i] = u;
}
