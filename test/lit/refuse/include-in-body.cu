// An #include inside a kernel's body (HeCBench wsm5 includes a file of
// macros and declarations there) brings statements that are not in the
// kernel's text, which tfuse writes out per copy: refused, naming the
// directive, in both modes (it wrote `double cpv_0 = 4.*r_v;` without the
// file's #define, which nvcc rejected).
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck %s

// CHECK: include-in-body.cu:[[@LINE+6]]:1: error: an #include inside the kernel's body: the included statements are not in the kernel's text, which tfuse rewrites; include the file before the kernel
#pragma tfuse coarsen
__global__ void k(double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = i;
#include "Inputs/body-include-constants.h"
    out[j] = cpv * i;
  }
}

void launch(double *out, int n) { k<<<(n + 127) / 128, 128>>>(out, n); }
