// A `break` under a varying condition makes its loop varying, even when the
// loop's own bound is uniform: the copies leave it at different times, so
// what the loop assigns becomes varying and the whole loop is emitted once
// per copy.  Its counter, declared in the loop, is private to each replica
// and keeps its name.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after=uniform %s | FileCheck %s --check-prefix=DUMP
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: VAR 'last' <{{[0-9:]+}}> varying [varying]
// DUMP: FOR <{{[0-9:]+}}> varying varying-control
// DUMP: VAR 'j' <{{[0-9:]+}}> [uniform]
// DUMP: IF <{{[0-9:]+}}> varying varying-control
// DUMP: BREAK

// CHECK-LABEL: __global__ void k(
// CHECK:      for (int j = 0; j < m; j++) {
// CHECK-NEXT:   if (in[i_0 * m + j] < 0) break;
// CHECK-NEXT:   last_0 = j;
// CHECK-NEXT: }
// CHECK-NEXT: if (__tf_ok_1) for (int j = 0; j < m; j++) {
// CHECK-NEXT:   if (in[i_1 * m + j] < 0) break;
// CHECK-NEXT:   last_1 = j;
// CHECK-NEXT: }

#pragma tfuse coarsen
__global__ void k(int *out, const int *in, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int last = -1;
  for (int j = 0; j < m; j++) {
    if (in[i * m + j] < 0) break;
    last = j;
  }
  out[i] = last;
}
