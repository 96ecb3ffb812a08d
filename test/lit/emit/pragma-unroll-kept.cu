// `#pragma unroll` before a loop is a directive between statements, not
// inside one: the loop is coarsened and the pragma kept before it.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      #pragma unroll 4
// CHECK-NEXT: for (int j = 0; j < 8; j++) {
// CHECK-NEXT: acc_0 += in[(blockIdx.x * 2) * blockDim.x + threadIdx.x + j];
#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  float acc = 0.0f;
#pragma unroll 4
  for (int j = 0; j < 8; j++)
    acc += in[blockIdx.x * blockDim.x + threadIdx.x + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

void run(const float *in, float *out, int n) { k<<<n, 128>>>(in, out); }
