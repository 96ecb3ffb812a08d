// A __device__ function that reads an index coarsening changes is called
// per copy through a clone (test/lit/calls/clone-helpers.cu), except where
// tfuse cannot clone it: a member function, a function defined after the
// kernel (its clone goes before the kernel).
// The error points at the kernel's call; in block mode (threadIdx
// unchanged) the kernel is accepted.
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -mode block %s -o %t.block.cu
// RUN: %nvcc-check %t.block.cu

struct Lane {
  int base;
  __device__ int id() const { return base + threadIdx.x; }
};
__device__ int later();

#pragma tfuse coarsen
__global__ void k(int *out) {
  Lane l = {1};
// CHECK: device-function-reads-index.cu:[[@LINE+1]]:7: error: 'id' reads threadIdx.x, which coarsening changes; tfuse does not clone member functions or constructors per copy; pass the value as an argument instead
  out[l.id()] = 1;
// CHECK: device-function-reads-index.cu:[[@LINE+1]]:7: error: 'later' reads threadIdx.x, which coarsening changes; tfuse puts its per-copy clone before the kernel, but it is defined after it; define it before the kernel
  out[later()] = 2;
}

__device__ int later() { return threadIdx.x; }

void run(int *out) { k<<<4, 64>>>(out); }
