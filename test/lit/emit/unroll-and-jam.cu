// A uniform loop whose body holds varying statements is emitted once and
// its body processed recursively (unroll-and-jam): the uniform load w[j]
// happens once per iteration for all copies, the accumulation once per
// copy.  The `#pragma unroll` above the loop stays with it.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      float acc_0 = 0.0f;
// CHECK-NEXT: float acc_1 = 0.0f;
// CHECK-NEXT: #pragma unroll 4
// CHECK-NEXT: for (int j = 0; j < m; j++) {
// CHECK-NEXT:   float wj = w[j];
// CHECK-NEXT:   acc_0 += wj * in[j * n + i_0];
// CHECK-NEXT:   if (__tf_ok_1) acc_1 += wj * in[j * n + i_1];
// CHECK-NEXT: }
// CHECK-NEXT: out[i_0] = acc_0;
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = acc_1;
// CHECK-NOT:  for (

#pragma tfuse coarsen factor(2)
__global__ void k(float *out, const float *w, const float *in, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 4
  for (int j = 0; j < m; j++) {
    float wj = w[j];
    acc += wj * in[j * n + i];
  }
  out[i] = acc;
}
