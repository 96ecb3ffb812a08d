// Cooperative groups that tfuse does not follow are refused, in the kernel
// and in a helper it calls, with the reason: in block mode, what reads the
// block index (group_index), the grid's sync (the kernel's only reason, in
// its text or a helper's) and validity, a query of the
// grid in a helper, coalesced groups where the copies' statements do not run
// in the original's threads (a condition that differs between the copies, a
// return that only some copies take where the rest of the kernel is not
// written out per copy: emit/coalesced-after-return.cu), a barrier over warps under control
// that differs between the copies and the threads, a type-erased group that
// may be assigned, an operator of the user's in cg::reduce; in thread mode
// without whole warps (here the consecutive mapping), every query and
// collective (each logical thread's place changes).  What block mode
// accepts: emit/cooperative-groups-block-mode.cu and
// emit/cooperative-groups-block-forms.cu; thread mode with whole warps:
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

__device__ unsigned long long grid_rank() { return cg::this_grid().thread_rank(); }

__device__ void sync_all() { cg::sync(cg::this_grid()); }

// A kernel that synchronises the grid gets that reason alone, the first
// one it reaches, in its text or through a helper.
#pragma tfuse coarsen
__global__ void grid_wide(int *out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1;
// BLOCK: cooperative-groups.cu:[[@LINE+2]]:3: error: cooperative groups ('sync'): grid-wide synchronisation: coarsening changes the grid, and tfuse does not rewrite cooperative launches
// BLOCK-NOT: cooperative-groups.cu:[[@LINE+2]]
  grid.sync();
  out[blockIdx.x + grid_rank()] = 3;
}

#pragma tfuse coarsen
__global__ void grid_wide_helper(int *out) {
  out[blockIdx.x] = 1;
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:3: error: 'sync_all' synchronises the whole grid (cooperative groups): coarsening changes the grid, and tfuse does not rewrite cooperative launches
  sync_all();
}

#pragma tfuse coarsen
__global__ void grid_other(int *out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1;
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:7: error: cooperative groups ('is_valid'): grid-wide synchronisation, or another use of the grid than its queries
  if (grid.is_valid())
    out[blockIdx.x] = 2;
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:20: error: 'grid_rank' uses cooperative groups ('thread_rank'): a query of the grid in a helper, which reads the block index: tfuse renumbers it only in the kernel's own text; pass the value as an argument
  out[blockIdx.x + grid_rank()] = 3;
}

__device__ int agg_inc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int res = 0;
  if (active.thread_rank() == 0)
    res = atomicAdd(counter, active.size());
  return active.shfl(res, 0) + active.thread_rank();
}

#pragma tfuse coarsen
__global__ void coalesced(int *out, int n) {
  if (blockIdx.x % 3 == 0) {
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:31: error: a coalesced group (made of the threads that run a statement together) under a condition that differs between the copies: the merged branch runs where any copy takes it
    cg::coalesced_group act = cg::coalesced_threads();
    out[blockIdx.x * 64 + act.thread_rank()] = 1;
  }
  if (blockIdx.x % 2 == 0)
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:9: error: 'agg_inc' holds a coalesced group (made of the threads that run a statement together) under a condition that differs between the copies
    out[agg_inc(out)] = 1;
  if (blockIdx.x * 64 + threadIdx.x >= n)
    return;
  __shared__ int seen[64]; /* declared after the return: each copy's rest would declare its own */
  seen[threadIdx.x] = 1;
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:30: error: a coalesced group (made of the threads that run a statement together) after a return that only some copies take: the copies' live flags differ between the threads of a warp
  cg::coalesced_group rest = cg::coalesced_threads();
  out[blockIdx.x * 64 + threadIdx.x] = rest.shfl((int)blockIdx.x, 0) + seen[0];
}

// The return inside a loop: the loop's statements interleave the copies.
#pragma tfuse coarsen
__global__ void coalesced_in_loop(int *out, int n) {
  for (int j = 0; j < 2; j++) {
    if (blockIdx.x * 64 + threadIdx.x + j >= n)
      return;
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:32: error: a coalesced group (made of the threads that run a statement together) after a return that only some copies take
    cg::coalesced_group rest = cg::coalesced_threads();
    out[blockIdx.x * 64 + threadIdx.x + j] = rest.shfl((int)blockIdx.x, 0);
  }
}

__device__ cg::thread_group pick(cg::thread_block b) { return b; }
__device__ unsigned erased_rank(cg::thread_group g) { return g.thread_rank(); }

#pragma tfuse coarsen
__global__ void wide_tile(int *out, int n) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<64> t = cg::tiled_partition<64>(cta);
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:30: error: 'erased_rank' uses cooperative groups ('thread_rank'): a type-erased or template-dependent group that tfuse cannot follow to where it is made
  out[blockIdx.x * 64 + (int)erased_rank(pick(cta))] = 1;
  if (blockIdx.x * 64 + threadIdx.x < n)
// BLOCK: cooperative-groups.cu:[[@LINE+1]]:5: error: t.sync() under control that differs between the copies: the merged blocks would need different barriers
    t.sync();
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
  coalesced<<<n, 64>>>(o, n);
  wide_tile<<<n, 128>>>(o, n);
}
