// Register promotion in block mode: the shared array is replicated per
// logical block (s_0, s_1), and each copy keeps its own element of its own
// array in a register.  An int block size means blockDim.y = blockDim.z = 1,
// so the owner's index s[t] (t = threadIdx.x) is one element per thread.
// The postfix update used as a statement becomes a store of the updated
// register.  Reads at another index (s[t ^ 1]) stay shared loads.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      __shared__ float s_0[64];
// CHECK-NEXT: __shared__ float s_1[64];
// CHECK-NEXT: float s_reg_0, s_reg_1; /* tfuse: the copies' own elements of s[t], kept in registers */
// CHECK:      s_0[t] = s_reg_0 = in[i_0];
// CHECK-NEXT: if (__tf_ok_1) s_1[t] = s_reg_1 = in[i_1];
// CHECK-NEXT: (s_0[t] = ++s_reg_0);
// CHECK-NEXT: if (__tf_ok_1) (s_1[t] = ++s_reg_1);
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: out[i_0] = s_reg_0 * s_0[t ^ 1];
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = s_reg_1 * s_1[t ^ 1];

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  s[t] = in[i];
  s[t]++;
  __syncthreads();
  out[i] = s[t] * s[t ^ 1];
}

void host(const float *in, float *out, int n) {
  k<<<n / 64, 64>>>(in, out);
}
