// A kernel that calls a recursive __device__ function is refused.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

// CHECK: recursion.cu:[[@LINE+1]]:54: error: recursive call to 'fact': a coarsened kernel cannot recurse
__device__ int fact(int x) { return x <= 1 ? 1 : x * fact(x - 1); }

#pragma tfuse coarsen
__global__ void k(int *out) {
  out[blockIdx.x] = fact(blockIdx.x);
}
