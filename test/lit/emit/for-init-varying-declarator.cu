// A for-statement whose init declares a variable that differs between the
// copies (`b = blockIdx.x * 32`) next to a uniform one: the header cannot
// be emitted once, so the loop is emitted per copy (this was "internal
// error: varying 'b' in a statement emitted once").
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      for (int a = 0, b_0 = (blockIdx.x * 2) * 32; a < 4; a++)
// CHECK-NEXT:   c[b_0 + a + threadIdx.x] = a;
// CHECK-NEXT: if (__tf_ok_1) for (int a = 0, b_1 = (blockIdx.x * 2 + 1) * 32; a < 4; a++)
// CHECK-NEXT:   c[b_1 + a + threadIdx.x] = a;

#pragma tfuse coarsen
__global__ void k(float *c) {
  for (int a = 0, b = blockIdx.x * 32; a < 4; a++)
    c[b + a + threadIdx.x] = a;
}

int main() {
  k<<<10, 32>>>(nullptr);
  return 0;
}
