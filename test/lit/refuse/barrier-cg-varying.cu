// A cooperative-groups barrier of the block (`cg::sync(block)`,
// `block.sync()`) is a barrier like __syncthreads(): under control that
// differs between the copies it is refused, and the message names the
// barrier as written.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#pragma tfuse coarsen mode(thread)
__global__ void k(float *o) {
  cg::thread_block b = cg::this_thread_block();
// CHECK: barrier-cg-varying.cu:[[@LINE+1]]:25: error: cg::sync() under control that differs between the copies: the merged threads would need different barriers
  if (threadIdx.x < 16) cg::sync(b);
// CHECK: barrier-cg-varying.cu:[[@LINE+1]]:24: error: b.sync() under control that differs between the copies: the merged threads would need different barriers
  if (threadIdx.x < 8) b.sync();
  o[threadIdx.x] = 1;
}

void run(float *o) { k<<<1, 64>>>(o); }
