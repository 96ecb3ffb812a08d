// A volatile __shared__ array in thread mode is refused: it is the mark of
// a warp-synchronous reduction, which merging threads would split.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen mode(thread)
__global__ void k(float *out, const float *in) {
// CHECK: volatile-shared-thread-mode.cu:[[@LINE+1]]:29: error: volatile __shared__ 's' suggests warp-synchronous code, which thread mode would split
  volatile __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 32)
    s[threadIdx.x] += s[threadIdx.x + 32];
  out[threadIdx.x] = s[threadIdx.x];
}
