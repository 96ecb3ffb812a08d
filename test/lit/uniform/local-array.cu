// A local array written with a varying index or a varying value is varying
// (each copy needs its own); one written only with uniform indices and
// values stays uniform, and the emitter declares it once.  A copy past the
// grid may write its own array at a fixed index (harmless register work),
// but its store at a copy-dependent index is guarded.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after=uniform %s | FileCheck %s --check-prefix=DUMP
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: VAR 'by_index' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'by_value' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'plain' <{{[0-9:]+}}> [uniform]

// CHECK-LABEL: __global__ void k(
// CHECK:      float by_index_0[4];
// CHECK-NEXT: float by_index_1[4];
// CHECK-NEXT: float by_value_0[4];
// CHECK-NEXT: float by_value_1[4];
// CHECK-NEXT: float plain[4];
// CHECK-NOT:  plain_
// CHECK:      by_index_0[i_0 & 3] = 1.0f;
// CHECK-NEXT: if (__tf_ok_1) by_index_1[i_1 & 3] = 1.0f;
// CHECK-NEXT: by_value_0[0] = (float)i_0;
// CHECK-NEXT: by_value_1[0] = (float)i_1;
// CHECK-NEXT: plain[threadIdx.x & 3] = 2.0f;
// CHECK-NEXT: out[i_0] = by_index_0[0] + by_value_0[0] + plain[1];
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = by_index_1[0] + by_value_1[0] + plain[1];

#pragma tfuse coarsen
__global__ void k(float *out) {
  float by_index[4];
  float by_value[4];
  float plain[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  by_index[i & 3] = 1.0f;
  by_value[0] = (float)i;
  plain[threadIdx.x & 3] = 2.0f;
  out[i] = by_index[0] + by_value[0] + plain[1];
}
