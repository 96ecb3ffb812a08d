// A builtin written in a macro's argument that tfuse cannot expand (glibc's
// assert stringizes its argument) is refused only where the mode changes
// it: block mode keeps blockDim and threadIdx, so `assert(blockDim.x ==
// 256)` stays as written, once per copy under the copy's live flag; thread
// mode rescales blockDim, which the macro's text hides, so it refuses, as
// block mode does for blockIdx.
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.thread.cu 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: sed 's#^  // seed: #  #' %s > %t.seed.cu
// RUN: not %tfuse -factor 2 %t.seed.cu -o %t.seed.out.cu 2>&1 | FileCheck %s --check-prefix=SEED
#include <cassert>

#pragma tfuse coarsen
__global__ void scale(float *x, int n) {
  assert(blockDim.x == 256 && threadIdx.x < 256);
  // seed: assert(blockIdx.x < 100000);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

void run(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }

// BLOCK: __global__ void scale(unsigned int __tf_grid_x, float *x, int n) {
// BLOCK:   assert(blockDim.x == 256 && threadIdx.x < 256);
// BLOCK:   if (__tf_ok_1) assert(blockDim.x == 256 && threadIdx.x < 256);
// THREAD: builtin-in-unexpandable-macro.cu:18:3: error: blockDim inside a macro expansion: tfuse rewrites source text and cannot reach it
// SEED: builtin-in-unexpandable-macro.cu.tmp.seed.cu:19:3: error: blockIdx inside a macro expansion: tfuse rewrites source text and cannot reach it
