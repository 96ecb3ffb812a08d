// A declaration with several declarators is split: each uniform declarator
// is declared once, each varying one K times, in the original order.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      int x = threadIdx.x;
// CHECK-NEXT: int y_0 = (blockIdx.x * 2);
// CHECK-NEXT: int y_1 = (blockIdx.x * 2 + 1);
// CHECK-NEXT: int z = blockDim.x;
// CHECK-NEXT: out[y_0 * z + x] = x;
// CHECK-NEXT: if (__tf_ok_1) out[y_1 * z + x] = x;
// CHECK-NOT:  x_0

#pragma tfuse coarsen
__global__ void k(int *out) {
  int x = threadIdx.x, y = blockIdx.x, z = blockDim.x;
  out[y * z + x] = x;
}
