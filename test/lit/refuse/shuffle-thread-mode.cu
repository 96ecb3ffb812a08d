// __shfl_down_sync in thread mode is refused: merging threads would split
// the lanes of a warp.  Block mode keeps warps intact, so the same kernel
// is accepted there, each copy shuffling its own value (every lane runs
// copy 1's shuffle, and the guarded statement reads its result: see
// emit/warp-calls-block-guard.cu).
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu

// BLOCK:      v_0 += __shfl_down_sync(0xffffffff, v_0, 1);
// BLOCK-NEXT: const auto [[W:__tf_w[0-9]+]] = __shfl_down_sync(0xffffffff, v_1, 1); /* tfuse: warp-synchronous, every lane */
// BLOCK-NEXT: if (__tf_ok_1) v_1 += [[W]];

#pragma tfuse coarsen
__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = out[i];
// CHECK: shuffle-thread-mode.cu:[[@LINE+1]]:8: error: warp-synchronous '__shfl_down_sync' in thread mode: merging threads would split the lanes of a warp
  v += __shfl_down_sync(0xffffffff, v, 1);
  out[i] = v;
}
