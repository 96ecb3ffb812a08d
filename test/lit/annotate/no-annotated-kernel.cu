// A file with no kernel marked `#pragma tfuse coarsen` and no -kernel
// option: tfuse warns, succeeds, and writes the input unchanged.
// RUN: %tfuse %s -o %t.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.cu

// CHECK: warning: no kernel in '{{.*}}no-annotated-kernel.cu' is marked '#pragma tfuse coarsen' or named with -kernel; the output is the input unchanged

__global__ void k(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

void host(float *p) { k<<<4, 64>>>(p); }
