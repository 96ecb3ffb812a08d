// A parameter that the kernel writes with a varying value becomes varying:
// each copy gets its own copy of it, declared at entry from the original
// parameter (decltype keeps its type), and the parameter list is unchanged
// apart from the grid extent block mode adds.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(unsigned int __tf_grid_x, float *out, int n, float bias) {
// CHECK:      decltype(n) n_0 = n;
// CHECK-NEXT: decltype(n) n_1 = n;
// CHECK-NEXT: n_0 += (blockIdx.x * 2) * blockDim.x + threadIdx.x;
// CHECK-NEXT: n_1 += (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x;
// CHECK-NEXT: out[n_0] = bias;
// CHECK-NEXT: if (__tf_ok_1) out[n_1] = bias;
// CHECK-NOT:  bias_

#pragma tfuse coarsen
__global__ void k(float *out, int n, float bias) {
  n += blockIdx.x * blockDim.x + threadIdx.x;
  out[n] = bias;
}
