// In thread mode along x, a __device__ function that reads threadIdx.x
// itself is refused: the substitution happens only in the kernel's text,
// so each copy would see the physical index.  The error points at the
// call; in block mode (threadIdx unchanged) the kernel is accepted.
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -mode block %s -o %t.block.cu
// RUN: %nvcc-check %t.block.cu

__device__ int tid() { return threadIdx.x; }

#pragma tfuse coarsen
__global__ void k(int *out) {
// CHECK: device-function-reads-index.cu:[[@LINE+1]]:7: error: 'tid' reads threadIdx.x, which coarsening changes; pass the value as an argument instead
  out[tid()] = 1;
}
