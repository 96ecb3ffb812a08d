// __shfl_down_sync in thread mode: with the stride mapping along x, copy r
// of a physical warp is one whole logical warp, lane for lane, when
// blockDim.x / K is a multiple of 32, so each copy shuffles among its own
// logical warp; the launch checks that multiple at run time
// (coarsen_block_warps).  The consecutive mapping splits a logical warp's
// lanes across copies: refused.  Block mode keeps warps intact, each copy
// shuffling its own value (every lane runs copy 1's shuffle, and the
// guarded statement reads its result: see emit/warp-calls-block-guard.cu).
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -mode thread -mapping consecutive %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -mode thread -factor 2 %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// BLOCK:      v_0 += __shfl_down_sync(0xffffffff, v_0, 1);
// BLOCK-NEXT: const auto [[W:__tf_w[0-9]+]] = __shfl_down_sync(0xffffffff, v_1, 1); /* tfuse: warp-synchronous, every lane */
// BLOCK-NEXT: if (__tf_ok_1) v_1 += [[W]];

// THREAD:      v_0 += __shfl_down_sync(0xffffffff, v_0, 1);
// THREAD-NEXT: v_1 += __shfl_down_sync(0xffffffff, v_1, 1);
// THREAD:      k<<<n, ::tfuse_rt::coarsen_block_warps(128, 0, 2u, "k", "{{.*}}")>>>(o);

#pragma tfuse coarsen
__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = out[i];
// CHECK: shuffle-thread-mode.cu:[[@LINE+1]]:8: error: warp-synchronous '__shfl_down_sync' in thread mode: merging threads would split the lanes of a warp; thread mode keeps warps whole only with -mapping stride along x alone
  v += __shfl_down_sync(0xffffffff, v, 1);
  out[i] = v;
}

void run(float *o, int n) { k<<<n, 128>>>(o); }
