// A builtin's component written in a macro's argument that tfuse does not
// expand (glibc's assert stringizes its argument) is rewritten where it is
// written: the macro substitutes the argument's tokens as written, so the
// rewrite reaches the expression; the stringized copy (assert's message)
// shows the rewritten text, no value changes.  Block mode keeps blockDim
// and threadIdx, so `assert(blockDim.x == 256)` stays as written, once per
// copy under the copy's live flag; thread mode rescales blockDim and
// renumbers threadIdx in each copy's assert; block mode renumbers
// blockIdx.  Refused, as before, where the text is not the builtin alone:
// a macro that pastes (`##`) its argument, and a builtin whose tokens come
// from two arguments (`DOT(blockDim, x)`).
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %s -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: sed 's#^  // seed: #  #' %s > %t.seed.cu
// RUN: %tfuse -factor 2 %t.seed.cu -o %t.seed.out.cu
// RUN: FileCheck %s --check-prefix=SEED < %t.seed.out.cu
// RUN: %nvcc-check %t.seed.out.cu
// RUN: sed 's#^  // paste: #  #' %s > %t.paste.cu
// RUN: not %tfuse -factor 2 -mode thread %t.paste.cu -o %t.paste.out.cu 2>&1 | FileCheck %s --check-prefix=PASTE
// RUN: sed 's#^  // split: #  #' %s > %t.split.cu
// RUN: not %tfuse -factor 2 -mode thread %t.split.cu -o %t.split.out.cu 2>&1 | FileCheck %s --check-prefix=SPLIT
#include <cassert>
#define PASTE(a, b) a##b
#define DOT(a, m) a.m

#pragma tfuse coarsen
__global__ void scale(float *x, int n) {
  assert(blockDim.x == 256 && threadIdx.x < 256);
  // seed: assert(blockIdx . x < 100000);
  // paste: assert(PASTE(blockDim.x, ) == 256);
  // split: assert(DOT(blockDim, x) == 256);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

void run(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }

// BLOCK: __global__ void scale(unsigned int __tf_grid_x, float *x, int n) {
// BLOCK:   assert(blockDim.x == 256 && threadIdx.x < 256);
// BLOCK:   if (__tf_ok_1) assert(blockDim.x == 256 && threadIdx.x < 256);
// THREAD: __global__ void scale(float *x, int n) {
// THREAD:   assert((blockDim.x * 2) == 256 && (threadIdx.x) < 256);
// THREAD-NEXT:   assert((blockDim.x * 2) == 256 && (threadIdx.x + 1 * blockDim.x) < 256);
// SEED:      assert((blockIdx.x * 2) < 100000);
// SEED-NEXT: if (__tf_ok_1) assert((blockIdx.x * 2 + 1) < 100000);
// PASTE: builtin-in-macro-argument.cu.tmp.paste.cu:35:16: error: blockDim inside a macro expansion: tfuse rewrites source text and cannot reach it
// SPLIT: builtin-in-macro-argument.cu.tmp.split.cu:36:3: error: blockDim inside a macro expansion: tfuse rewrites source text and cannot reach it
