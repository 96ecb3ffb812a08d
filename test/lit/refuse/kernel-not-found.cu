// -kernel NAME for a kernel the file does not define is an error naming
// the kernel and the file; nothing is written.
// RUN: rm -f %t.out
// RUN: not %tfuse -kernel nosuch %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

// CHECK: tfuse: error: no __global__ function named 'nosuch' is defined in '{{.*}}kernel-not-found.cu'

__global__ void k(float *o) { o[blockIdx.x] = 1.0f; }
