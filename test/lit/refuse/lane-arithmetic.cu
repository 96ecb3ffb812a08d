// Lane arithmetic on the coarsened thread index in thread mode
// (threadIdx.x % 32): refused where the mapping changes which logical
// threads share a warp (consecutive), so that the lane number would lie;
// with the stride mapping along x each copy of a physical warp is a whole
// logical warp, lane for lane, and the launch checks blockDim.x / K.
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -mapping consecutive %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s --check-prefix=STRIDE < %t.cu
// RUN: %nvcc-check %t.cu

// STRIDE: int lane_1 = (threadIdx.x + 1 * blockDim.x) % 32;
// STRIDE: coarsen_block_warps(256, 0, 2u, "k"
#pragma tfuse coarsen mode(thread)
__global__ void k(int *out) {
// CHECK: lane-arithmetic.cu:[[@LINE+1]]:14: error: lane arithmetic on the thread index in thread mode: merging threads would change which lanes form a warp; thread mode keeps warps whole only with -mapping stride along x alone
  int lane = threadIdx.x % 32;
  out[blockIdx.x * blockDim.x + threadIdx.x] = lane;
}

void run(int *o, int n) { k<<<n, 256>>>(o); }
