// Control dependence: a variable declared outside a varying `if` and
// assigned under it is varying; one declared inside the varying `if` and
// defined uniformly stays uniform (its scope ends before the copies can
// disagree); an assignment under a uniform `if` does not make it varying.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after=uniform %s | FileCheck %s --check-prefix=DUMP
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: VAR 'm' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'u' <{{[0-9:]+}}> [uniform]
// DUMP: IF <{{[0-9:]+}}> varying varying-control
// DUMP: VAR 'inner' <{{[0-9:]+}}> [uniform]
// DUMP: IF <{{[0-9:]+}}>{{$}}

// CHECK-LABEL: __global__ void k(
// CHECK:      int m_0 = 0;
// CHECK-NEXT: int m_1 = 0;
// CHECK-NEXT: int u = 0;
// CHECK-NEXT: const bool __tf_p1_0 = (i_0 < n);
// CHECK-NEXT: const bool __tf_p1_1 = __tf_ok_1 && (i_1 < n);
// CHECK-NEXT: if (__tf_p1_0 || __tf_p1_1) {
// CHECK-NEXT:   if (__tf_p1_0) m_0 = 5;
// CHECK-NEXT:   if (__tf_p1_1) m_1 = 5;
// CHECK-NEXT:   int inner = n * 3;
// CHECK-NEXT:   if (__tf_p1_0) out[i_0] = inner;
// CHECK-NEXT:   if (__tf_p1_1) out[i_1] = inner;
// CHECK-NEXT: }
// CHECK-NEXT: if (n > 4) {
// CHECK-NEXT:   u = 7;
// CHECK-NEXT: }
// CHECK-NOT:  inner_
// CHECK-NOT:  u_0

#pragma tfuse coarsen
__global__ void k(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = 0;
  int u = 0;
  if (i < n) {
    m = 5;
    int inner = n * 3;
    out[i] = inner;
  }
  if (n > 4) {
    u = 7;
  }
  out[i + 1] = m + u;
}
