// Block mode: every way of writing a shared variable counts (effects.c).
// A uniform compound assignment is made once per copy, so its array is
// replicated; so is one written through a local pointer with a value that
// differs between the copies, and one handed to
// a helper that writes through its pointer parameter.  The copies name
// their own replicas, also in the pointer's initializer and the call.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      a_0[threadIdx.x] = a_reg_0 += 1;
// CHECK-NEXT: if (__tf_ok_1) a_1[threadIdx.x] = a_reg_1 += 1;
// CHECK:      int *p_0 = &b_0[threadIdx.x];
// CHECK-NEXT: int *p_1 = &b_1[threadIdx.x];
// CHECK:      *p_0 = (blockIdx.x * 2);
// CHECK-NEXT: if (__tf_ok_1) *p_1 = (blockIdx.x * 2 + 1);
// CHECK:      put(c_0, threadIdx.x);
// CHECK-NEXT: if (__tf_ok_1) put(c_1, threadIdx.x);

__device__ void put(int *p, int t) { p[t] = t; }

#pragma tfuse coarsen
__global__ void k(int *out) {
  __shared__ int a[64], b[64], c[64];
  a[threadIdx.x] = 0;
  __syncthreads();
  a[threadIdx.x] += 1;
  int *p = &b[threadIdx.x];
  *p = blockIdx.x;
  put(c, threadIdx.x);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = a[threadIdx.x] + b[threadIdx.x] + c[threadIdx.x];
}

void run(int *out, int n) { k<<<n, 64>>>(out); }
