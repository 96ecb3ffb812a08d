// Device functions defined in a header are analysed by their bodies like
// the file's own: a pure helper of uniform arguments is emitted once, a
// helper that writes through a pointer or calls an atomic runs once per
// copy, and one that writes a reference argument makes the local per copy.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -I %S/Inputs %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check -I %S/Inputs %t.cu
// RUN: %tfuse -factor 2 -mode thread -I %S/Inputs %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check -I %S/Inputs %t.thread.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      float f = scale(s, 2.0f);
// CHECK-NEXT: count(cnt);
// CHECK-NEXT: if (__tf_ok_1) count(cnt);
// CHECK-NEXT: int n_0 = 0;
// CHECK-NEXT: int n_1 = 0;
// CHECK-NEXT: bump(n_0);
// CHECK-NEXT: if (__tf_ok_1) bump(n_1);
// CHECK-NEXT: put(out, i_0, f + n_0);
// CHECK-NEXT: if (__tf_ok_1) put(out, i_1, f + n_1);
#include "helpers.cuh"

#pragma tfuse coarsen
__global__ void k(float *out, int *cnt, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = scale(s, 2.0f);
  count(cnt);
  int n = 0;
  bump(n);
  put(out, i, f + n);
}

void run(float *out, int *cnt, int n) { k<<<n, 64>>>(out, cnt, 1.0f); }
