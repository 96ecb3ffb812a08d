// A uniform, side-effect-free statement (a uniform local definition, a
// uniform load) is emitted once; a varying statement is emitted K times,
// copy r with each varying name renamed to name_r and blockIdx.x
// substituted by blockIdx.x * K + r.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      int i_0 = (blockIdx.x * 3) * blockDim.x + threadIdx.x;
// CHECK-NEXT: int i_1 = (blockIdx.x * 3 + 1) * blockDim.x + threadIdx.x;
// CHECK-NEXT: int i_2 = (blockIdx.x * 3 + 2) * blockDim.x + threadIdx.x;
// CHECK-NEXT: float scale = s * n;
// CHECK-NEXT: float base = in[n];
// CHECK-NEXT: out[i_0] = scale * in[i_0] + base;
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = scale * in[i_1] + base;
// CHECK-NEXT: if (__tf_ok_2) out[i_2] = scale * in[i_2] + base;
// CHECK-NEXT: }
// CHECK-NOT:  scale_
// CHECK-NOT:  base_

#pragma tfuse coarsen factor(3)
__global__ void k(float *out, const float *in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float scale = s * n;
  float base = in[n];
  out[i] = scale * in[i] + base;
}
