// A varying return is the only way out of this loop: each logical thread
// leaves it when i + j reaches n.  The loop stays shared (its header is
// uniform) and each return clears its copy's live flag; the loop must still
// end, so it breaks once no copy is active, counting copies of blocks past
// the grid (__tf_ok_1) as inactive.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      for (int j = 0; ; j++) { if (!(__tf_live_0 || (__tf_ok_1 && __tf_live_1))) break;
// CHECK:      if (__tf_p1_0) __tf_live_0 = false;
// CHECK-NEXT: if (__tf_p1_1) __tf_live_1 = false;
// CHECK:      if (__tf_live_0) out[i_0 + j] = 1.0f;
// CHECK-NEXT: if (__tf_ok_1 && __tf_live_1) out[i_1 + j] = 1.0f;

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; ; j++) {
    if (i + j >= n) return;
    out[i + j] = 1.0f;
  }
}
