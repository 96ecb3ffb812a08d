// Lane arithmetic on the coarsened thread index in thread mode
// (threadIdx.x % 32) is refused: merging threads changes which logical
// threads share a warp, so the lane number would lie.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen mode(thread)
__global__ void k(int *out) {
// CHECK: lane-arithmetic.cu:[[@LINE+1]]:14: error: lane arithmetic on the thread index in thread mode: merging threads would change which lanes form a warp
  int lane = threadIdx.x % 32;
  out[blockIdx.x * blockDim.x + threadIdx.x] = lane;
}
