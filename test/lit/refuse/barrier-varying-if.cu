// __syncthreads() under an `if` whose condition differs between the copies
// is refused: the copies would need different barriers.  The error points
// at the barrier, a note at the condition; no output file is written.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK: barrier-varying-if.cu:[[@LINE+3]]:5: error: __syncthreads() under control that differs between the copies: the merged blocks would need different barriers
// CHECK: barrier-varying-if.cu:[[@LINE+1]]:3: note: this condition depends on the logical block index, and the threads of one block may disagree on reaching the barrier
  if (i < n) {
    __syncthreads();
    out[i] = 1.0f;
  }
}
