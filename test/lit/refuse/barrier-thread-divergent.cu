// Block mode accepts a barrier under control that differs between the
// copies only when the threads of one logical block cannot disagree on it.
// Refused: a condition that also depends on threadIdx (directly or through
// a value computed from it), and a loop that depends on the block after a
// return some threads of a block take (those threads would skip the
// barriers of their copy's loop).
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK: barrier-thread-divergent.cu:[[@LINE+3]]:5: error: __syncthreads() under control that differs between the copies: the merged blocks would need different barriers
// CHECK: barrier-thread-divergent.cu:[[@LINE+1]]:3: note: this condition depends on the logical block index, and the threads of one block may disagree on reaching the barrier
  if (i < n) {
    __syncthreads();
    out[i] = 1.0f;
  }
}

#pragma tfuse coarsen
__global__ void after_return(float *out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
// CHECK: barrier-thread-divergent.cu:[[@LINE+3]]:5: error: __syncthreads() under control that differs between the copies
// CHECK: barrier-thread-divergent.cu:[[@LINE+1]]:3: note: this statement depends on the logical block index, and the threads of one block may disagree on reaching the barrier
  for (int r = 0; r < (int)blockIdx.x % 3; r++) {
    __syncthreads();
    s[threadIdx.x] = out[i];
  }
}

int main() {
  k<<<10, 128>>>(nullptr, 5);
  after_return<<<10, 128>>>(nullptr, 5);
  return 0;
}
