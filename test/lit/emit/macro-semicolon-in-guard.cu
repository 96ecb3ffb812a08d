// A macro whose expansion does not stay inside the expression it is used in
// (cuda-samples dwtHaar1D: `#define INV_SQRT_2 0.7071...f;` in `x * INV_SQRT_2;`):
// wrapped in a guard as written, its `;` would land inside the guard's
// parentheses (`__tf_ok_1 ? (x * 0.7071f;) : 0`). macros.c expands such a
// use, so the guard wraps the expression and the `;` follows it. A use it
// cannot expand (`##`) is not wrapped: a replica store keeps its branch, and
// an initializer that needs a guard is refused, naming the macro.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -no-promote -skip-unsafe %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread -no-promote -skip-unsafe %t.in.cu -o %t.thread.cu 2> %t.thread.err
// RUN: %nvcc-check %t.thread.cu

// CHECK-LABEL: __global__ void haar(
// CHECK:      s_0[threadIdx.x] = in[i_0] * 0.70710678118654752440f;
// CHECK-NEXT: s_1[threadIdx.x] = __tf_ok_1 ? (in[i_1] * 0.70710678118654752440f) : 0;;
// CHECK-NEXT: h_0[threadIdx.x] = in[i_0] * HALF(0.5)
// CHECK-NEXT: if (__tf_ok_1) h_1[threadIdx.x] = in[i_1] * HALF(0.5)
// CHECK:      float v_0 = in[i_0 + 1] * 0.70710678118654752440f;
// CHECK-NEXT: float v_1 = TFUSE_GUARD(__tf_ok_1, in[i_1 + 1] * 0.70710678118654752440f);;
// CHECK-LABEL: __global__ void init(
// CHECK-NEXT: int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT: float v = in[i] * HALF(0.5);
// ERR: warning: kernel 'init' left unchanged: cannot guard the initializer of 'v' for copies that may be inactive: the expansion of macro 'HALF' does not stay inside the expression; assign it in a separate statement
// ERR-NEXT: float v = in[i] * HALF(0.5);
// ERR-NEXT: {{^        \^}}

#include <cuda_runtime.h>
#define INV_SQRT_2 0.70710678118654752440f;
#define HALF(x) x##f;

#pragma tfuse coarsen
__global__ void haar(float *out, const float *in) {
  __shared__ float s[256];
  __shared__ float h[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i] * INV_SQRT_2;
  h[threadIdx.x] = in[i] * HALF(0.5)
  __syncthreads();
  float v = in[i + 1] * INV_SQRT_2;
  out[i] = s[threadIdx.x] + h[threadIdx.x] + v;
}

#pragma tfuse coarsen
__global__ void init(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i] * HALF(0.5);
  out[i] = v;
}

int main() {
  haar<<<4, 256>>>(nullptr, nullptr);
  init<<<4, 256>>>(nullptr, nullptr);
  return 0;
}
