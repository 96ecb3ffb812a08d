// A loop whose control differs between the copies is emitted K times
// whole, each replica renamed for its copy; the replica of a copy past the
// grid does not run.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      int steps_0 = 0;
// CHECK-NEXT: int steps_1 = 0;
// CHECK-NEXT: for (int v_0 = len[i_0]; v_0 > 1; v_0 /= 2)
// CHECK-NEXT:   steps_0++;
// CHECK-NEXT: if (__tf_ok_1) for (int v_1 = len[i_1]; v_1 > 1; v_1 /= 2)
// CHECK-NEXT:   steps_1++;
// CHECK-NEXT: out[i_0] = steps_0;
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = steps_1;

#pragma tfuse coarsen
__global__ void k(int *out, const int *len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int steps = 0;
  for (int v = len[i]; v > 1; v /= 2)
    steps++;
  out[i] = steps;
}
