// Thread mode with the stride mapping along x keeps warps whole: copy r of
// a physical warp is logical warp (t + r * blockDim.x / K) / 32, lane for
// lane, when blockDim.x / K is a multiple of 32, which each launch checks
// (coarsen_block_warps stops with the reason otherwise).  So a tile's
// collectives, its thread_rank and a warp reduction are emitted per copy
// as written; the tile's index among the block's tiles (meta_group_rank)
// and the block's queries are rewritten per copy
// (emit/cooperative-groups-thread-mode.cu).
// -factor auto marks such a thread-mode candidate mode 3: the runtime runs
// it only for blocks whose 1/K is whole warps.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: not %tfuse -factor 2 -mode thread -mapping consecutive %t.in.cu -o %t.c.cu 2>&1 | FileCheck %s --check-prefix=CONSECUTIVE
// RUN: %tfuse -factor auto -tune-space "thread.x:2,4" %t.in.cu -o %t.auto.cu
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.cu
// RUN: %nvcc-check %t.auto.cu

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// CHECK-LABEL: __global__ void sums(
// CHECK:      int s_0 = cg::reduce(warp{{(_0)?}}, v_0, cg::plus<int>());
// CHECK-NEXT: int s_1 = cg::reduce(warp{{(_1)?}}, v_1, cg::plus<int>());
// CHECK:      unsigned m_1 = __reduce_max_sync(0xffffffffu, (unsigned)v_1);
// CHECK:      const bool __tf_p1_1 = (warp{{(_1)?}}.thread_rank() == 0);
// CHECK:      sums<<<n, ::tfuse_rt::coarsen_block_warps(256, 0, 2u, "sums", "{{.*}}")>>>(in, out);
// CONSECUTIVE: error: cooperative groups ('reduce'): a collective of a tile, whose lanes thread mode would split across copies; thread mode keeps warps whole only with -mapping stride along x alone
// AUTO: {3, 0, 2u, "thread.x:2"}
// AUTO: ::tfuse_rt::coarsen_block_warps(__tf_block, 0, 2u, "sums"
#pragma tfuse coarsen
__global__ void sums(const int *in, int *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int s = cg::reduce(warp, v, cg::plus<int>());
  unsigned m = __reduce_max_sync(0xffffffffu, (unsigned)v);
  if (warp.thread_rank() == 0)
    out[i / 32] = s + (int)m;
}

void run(const int *in, int *out, int n) { sums<<<n, 256>>>(in, out); }
