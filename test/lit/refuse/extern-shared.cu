// An `extern __shared__` array that block mode would replicate (it is
// written with the block index) is refused: its size per logical block is
// known only at the launch.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *out) {
// CHECK: extern-shared.cu:[[@LINE+1]]:27: error: extern __shared__ 'dyn' must be replicated per logical block, but its size per block is unknown to tfuse
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
