// A kernel template may convert with a functional cast to its type
// parameter, T(i): that is a conversion, not a call, and the kernel is as
// coarsenable as with (T)i.
// Expected to fail: tfuse refuses it with "call through a pointer or of
// unknown function" (clang leaves T(i) unresolved in the template).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void fill(
// CHECK:      out[i_0] = T(i_0);
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = T(i_1);

#pragma tfuse coarsen
template <typename T>
__global__ void fill(T *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = T(i);
}

void host(float *p) { fill<float><<<4, 64>>>(p); }
