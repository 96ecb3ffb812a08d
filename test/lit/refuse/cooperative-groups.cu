// Cooperative groups that tfuse does not follow are refused, in the kernel
// and in a helper it calls, with the reason: in block mode, what reads the
// block index (group_index), grid-wide groups, coalesced groups, tiles of
// several warps or of a size given at run time; in thread mode without
// whole warps (here the consecutive mapping), every query and collective
// (each logical thread's place changes).  What block mode accepts:
// emit/cooperative-groups-block-mode.cu; thread mode with whole warps:
// emit/cooperative-groups-thread-mode.cu.
// RUN: not %tfuse -factor 2 -mode block %s -o %t.out 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: test ! -e %t.out
// RUN: not %tfuse -factor 2 -mode thread -mapping consecutive %s -o %t.out 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: test ! -e %t.out
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ int rank_of() { return cg::this_thread_block().thread_rank(); }

#pragma tfuse coarsen
__global__ void k(int *out) {
  cg::thread_block cta = cg::this_thread_block();
// BLOCK: cooperative-groups.cu:[[@LINE+3]]:7: error: cooperative groups ('group_index'): it reads the block index, which tfuse renumbers only where it is spelled blockIdx
// THREAD: cooperative-groups.cu:[[@LINE+2]]:7: error: cooperative groups ('group_index'): it reads the block index
// THREAD: cooperative-groups.cu:[[@LINE+1]]:34: error: cooperative groups ('thread_rank'): it reads the thread's place in its group or the group's size, which thread mode changes
  out[cta.group_index().x * 64 + cta.thread_rank()] = 1;
// THREAD: cooperative-groups.cu:[[@LINE+1]]:3: error: 'rank_of' uses cooperative groups ('thread_rank'): it reads the thread's place
  rank_of();
}

#pragma tfuse coarsen
__global__ void grid_wide(int *out) {
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:25: error: cooperative groups ('this_grid'): tfuse follows the block and tiles of at most 32 threads (their queries, collectives, cg::reduce and the scans), not this
  cg::grid_group grid = cg::this_grid();
  out[blockIdx.x * 64 + threadIdx.x] = 1;
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:3: error: cooperative groups ('sync'): its group is not the block or a tile of at most 32 threads
  grid.sync();
}

#pragma tfuse coarsen
__global__ void coalesced(int *out) {
  if (threadIdx.x % 3 == 0) {
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:31: error: cooperative groups ('coalesced_threads'): tfuse follows the block and tiles
    cg::coalesced_group act = cg::coalesced_threads();
    out[blockIdx.x * 64 + act.thread_rank()] = 1;
  }
}

#pragma tfuse coarsen
__global__ void wide_tile(int *out) {
  cg::thread_block cta = cg::this_thread_block();
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:33: error: cooperative groups ('tiled_partition'): a tile of more than 32 threads, or of a size given at run time, is not one whose collectives tfuse follows
  cg::thread_block_tile<64> t = cg::tiled_partition<64>(cta);
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:26: error: cooperative groups ('tiled_partition'): a tile of more than 32 threads
  cg::thread_group dyn = cg::tiled_partition(cta, 16);
  out[blockIdx.x * 64 + threadIdx.x] = t.shfl(1, 0) + (int)dyn.thread_rank();
}

// A reduction's own operator runs inside CUDA's headers: one that is not
// cooperative groups' (this one reads blockIdx) is not followed.
struct AddBlock {
  __device__ int operator()(int a, int b) const { return a + b + (int)blockIdx.x; }
};

#pragma tfuse coarsen
__global__ void user_op(int *out) {
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:40: error: cooperative groups ('reduce'): its operator is not one of cooperative groups' (cg::plus, cg::less, ...): it runs inside CUDA's headers, where tfuse cannot see what it reads
  out[blockIdx.x * 64 + threadIdx.x] = cg::reduce(w, (int)threadIdx.x, AddBlock());
}

void run(int *o, int n) {
  user_op<<<n, 64>>>(o);
  k<<<n, 64>>>(o);
  grid_wide<<<n, 64>>>(o);
  coalesced<<<n, 64>>>(o);
  wide_tile<<<n, 64>>>(o);
}
