// Thread mode rewrites per copy the block's queries and the meta_group_* of
// a tile partitioned from the block (emit/cooperative-groups-thread-mode.cu)
// only where it can: with whole warps (the stride mapping along x alone), in
// the kernel's own text outside a macro, on a group's expression that only
// names the group, and, for a tile's index among its parent's tiles, where
// the tile is known to be partitioned from the block or from a tile.
// Everything else is refused where it is written.
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: not %tfuse -factor 2 -mode thread -mapping consecutive %s -o %t.c.out 2>&1 | FileCheck %s --check-prefix=CONSECUTIVE
// RUN: not %tfuse -factor 2 -mode thread -dim y %s -o %t.y.out 2>&1 | FileCheck %s --check-prefix=ALONG-Y
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned rank_of(cg::thread_block b) { return b.thread_rank(); }
__device__ unsigned row_of(const cg::thread_block_tile<32> &w) { return w.meta_group_rank(); }
__device__ cg::thread_block pick(int *count) {
  atomicAdd(count, 1);
  return cg::this_thread_block();
}

#define ROW(w) w.meta_group_rank()

#pragma tfuse coarsen
__global__ void k(int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<32> moved = cg::tiled_partition<32>(block);
  if (out[0])
    moved = warp;
  cg::thread_block_tile<16> some = cg::tiled_partition<16>(block);
  cg::thread_block_tile<16> *p = &some;
// CHECK: cooperative-groups-thread-mode.cu:[[@LINE+3]]:3: error: 'rank_of' uses cooperative groups ('thread_rank'): it reads the thread's place in its group or the group's size, which thread mode changes; tfuse rewrites it per copy only in the kernel's body (pass the value as an argument)
// CONSECUTIVE: cooperative-groups-thread-mode.cu:[[@LINE+2]]:3: error: 'rank_of' uses cooperative groups ('thread_rank'): it reads the thread's place in its group or the group's size, which thread mode changes; tfuse rewrites it per copy only with -mapping stride along x alone
// ALONG-Y: cooperative-groups-thread-mode.cu:[[@LINE+1]]:3: error: 'rank_of' uses cooperative groups ('thread_rank'): {{.*}} only with -mapping stride along x alone
  rank_of(block);
// CHECK: cooperative-groups-thread-mode.cu:[[@LINE+2]]:3: error: 'row_of' uses cooperative groups ('meta_group_rank'): the tile's index among the block's tiles (or their number), which thread mode changes; tfuse renumbers it only for a tile partitioned from the block or from a tile (`cg::tiled_partition<N>(block)`, or a local it initializes that nothing else writes)
// CONSECUTIVE: cooperative-groups-thread-mode.cu:[[@LINE+1]]:3: error: 'row_of' uses cooperative groups ('meta_group_rank'): the tile's index among the block's tiles
  row_of(warp);
// CHECK: cooperative-groups-thread-mode.cu:[[@LINE+3]]:13: error: cooperative groups ('meta_group_rank'): the tile's index among the block's tiles (or their number), which thread mode changes; tfuse rewrites the call per copy, but cannot rewrite this one (spell it outside a macro)
// CONSECUTIVE: cooperative-groups-thread-mode.cu:[[@LINE+2]]:13: error: cooperative groups ('meta_group_rank'): {{.*}}; tfuse rewrites it per copy only with -mapping stride along x alone
// ALONG-Y: cooperative-groups-thread-mode.cu:[[@LINE+1]]:13: error: cooperative groups ('meta_group_rank'): {{.*}}; tfuse rewrites it per copy only with -mapping stride along x alone
  out[1] += ROW(warp);
// CHECK: cooperative-groups-thread-mode.cu:[[@LINE+1]]:13: error: cooperative groups ('meta_group_size'): the tile's index among the block's tiles (or their number), which thread mode changes; tfuse renumbers it only for a tile partitioned from the block or from a tile
  out[2] += moved.meta_group_size();
// CHECK: cooperative-groups-thread-mode.cu:[[@LINE+2]]:13: error: cooperative groups ('meta_group_rank'): the tile's index among the block's tiles (or their number), which thread mode changes; tfuse renumbers it only for a tile partitioned from the block or from a tile
// CHECK: cooperative-groups-thread-mode.cu:[[@LINE+1]]:38: error: cooperative groups ('meta_group_rank'): its group is not the block or a tile of at most 32 threads
  out[3] += some.meta_group_rank() + p->meta_group_rank();
// CHECK: cooperative-groups-thread-mode.cu:[[@LINE+1]]:13: error: cooperative groups ('thread_rank'): it reads the thread's place in its group or the group's size, which thread mode changes; tfuse replaces the call per copy by its value, and its group's expression does more than name the group (use a variable)
  out[4] += pick(out).thread_rank();
}

void run(int *o, int n) { k<<<n, 64>>>(o); }
