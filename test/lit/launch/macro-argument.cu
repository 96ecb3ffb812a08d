// A launch written in a macro's argument is rewritten where its text is,
// inside the argument. Block mode evaluates the grid once in a lambda
// called on the spot, an expression wherever the launch stood; thread mode
// rewrites the block argument in place. A macro that expands its argument
// twice still gets one rewrite. A launch inside a larger expression is
// rewritten the same way in block mode. A launch in a macro's body has no text of
// its own in the file: refused (see macro-body.cu).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: not %tfuse -factor 2 -check %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECKMODE

// BLOCK: return (void)([&] { const dim3 __tf_grid = (4); return k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, 5); }()), 0;
// BLOCK: TIME([&] { const dim3 __tf_grid = (blocks); return k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, n); }());
// BLOCK: WRAP(([&] { const dim3 __tf_grid = (dim3(blocks)); return k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128, 0>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, n); }()));
// BLOCK: TWICE([&] { const dim3 __tf_grid = (blocks); return k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, n); }());
// THREAD: TIME(k<<<blocks, ::tfuse_rt::coarsen_block(128, 0, 2u, "k", "{{.*}}")>>>(p, n));
// THREAD: WRAP((k<<<dim3(blocks), ::tfuse_rt::coarsen_block(128, 0, 2u, "k", "{{.*}}"), 0>>>(p, n)));
// CHECKMODE: error: -check cannot route a launch of 'k' written in a macro's argument; expand the macro by hand

#include <cuda_runtime.h>
#define TIME(...) do { __VA_ARGS__; cudaDeviceSynchronize(); } while (0)
#define WRAP(x) x
#define TWICE(...) do { __VA_ARGS__; __VA_ARGS__; } while (0)

#pragma tfuse coarsen
__global__ void k(float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] += 1.0f;
}

int host(float *p) {
  return (void)(k<<<4, 64>>>(p, 5)), 0;
}

int main() {
  float *p = nullptr;
  int n = 1000, blocks = 8;
  TIME(k<<<blocks, 128>>>(p, n));
  WRAP((k<<<dim3(blocks), 128, 0>>>(p, n)));
  TWICE(k<<<blocks, 128>>>(p, n));
  return 0;
}
