// Thread mode: the merged threads share one block, so a __shared__ array
// stays single even when written with a varying index or value; its stores
// are per-copy statements at the substituted thread index.
// REQUIRES: nvcc
// RUN: %tfuse -external-launches -dump-after=uniform -mode thread %s | FileCheck %s --check-prefix=DUMP
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches -mode thread %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: VAR 's' <{{[0-9:]+}}> [uniform]
// DUMP: VAR 't' <{{[0-9:]+}}> varying [varying]

// CHECK-LABEL: __global__ void k(
// CHECK:      __shared__ float s[128];
// CHECK-NOT:  s_0
// CHECK:      int t_0 = (threadIdx.x);
// CHECK-NEXT: int t_1 = (threadIdx.x + 1 * blockDim.x);
// CHECK-NEXT: s[t_0] = in[blockIdx.x * (blockDim.x * 2) + t_0];
// CHECK-NEXT: s[t_1] = in[blockIdx.x * (blockDim.x * 2) + t_1];
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: out[blockIdx.x * (blockDim.x * 2) + t_0] = s[127 - t_0];
// CHECK-NEXT: out[blockIdx.x * (blockDim.x * 2) + t_1] = s[127 - t_1];
// CHECK-NOT:  s_0

#pragma tfuse coarsen
__global__ void k(float *out, const float *in) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[127 - t];
}
