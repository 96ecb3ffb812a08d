// Cooperative groups' queries (thread_rank, group_index) read thread and
// block coordinates inside CUDA's headers, where tfuse cannot renumber them
// per copy: they are refused, in the kernel and in a helper it calls. (The
// block handle itself, used only to sync, is accepted: see
// emit/cooperative-groups-block-sync.cu.)
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int rank_of() { return cg::this_thread_block().thread_rank(); }

#pragma tfuse coarsen
__global__ void k(int *out) {
  cg::thread_block cta = cg::this_thread_block();
// CHECK: cooperative-groups.cu:[[@LINE+2]]:7: error: cooperative groups ('group_index') are not supported
// CHECK: cooperative-groups.cu:[[@LINE+1]]:34: error: cooperative groups ('thread_rank') are not supported
  out[cta.group_index().x * 64 + cta.thread_rank()] = 1;
// CHECK: cooperative-groups.cu:[[@LINE+1]]:3: error: 'rank_of' uses cooperative groups
  rank_of();
}

void run(int *o, int n) { k<<<n, 64>>>(o); }
