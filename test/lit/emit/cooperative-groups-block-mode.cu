// Block mode keeps the block's threads and warps, so cooperative groups'
// block and tile (of at most 32 threads) keep their meaning in every copy:
// handles are made once; queries (thread_rank, size, meta_group_rank) are
// the same in every copy and stay uniform; a tile's collectives (shfl_*,
// ballot, any, cg::reduce) are evaluated per copy, taken out of the copy's
// guard where the statement allows (every lane of the warp runs them, as
// in the original) and their results used under it, else under the guard,
// which the whole block shares; a helper that takes the block by value and calls
// cg::sync on it holds a barrier.  Thread mode refuses them
// (refuse/cooperative-groups.cu).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 4 -mode block %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float block_sum(cg::thread_block cta, float *s, float v) {
  s[cta.thread_rank()] = v;
  cg::sync(cta);
  float t = 0.0f;
  for (unsigned i = 0; i < cta.size(); i++)
    t += s[i];
  cg::sync(cta);
  return t;
}

// CHECK-LABEL: __global__ void rows(
// CHECK:      cg::thread_block block = cg::this_thread_block();
// CHECK-NEXT: cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
// CHECK-NEXT: int row_0 = (blockIdx.x * 4) * warp.meta_group_size() + warp.meta_group_rank();
// CHECK:      int row_3 = (blockIdx.x * 4 + 3) * warp.meta_group_size() + warp.meta_group_rank();
// CHECK:      for (int i = warp.thread_rank(); i < n; i += warp.size()) {
// CHECK:      v_0 = cg::reduce(warp, v_0, cg::plus<float>());
// CHECK-NEXT: const auto [[R1:__tf_w[0-9]+]] = cg::reduce(warp, v_1, cg::plus<float>()); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: if (__tf_ok_1) v_1 = [[R1]];
// CHECK:      if (__tf_ok_3) m_3 = max(m_3, warp.shfl_down(m_3, o));
// CHECK:      const auto [[B2:__tf_w[0-9]+]] = warp.ballot(v_2 > 0.0f); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: unsigned b_2 = TFUSE_GUARD(__tf_ok_2, [[B2]]);
// CHECK:      block_sum(block, s_0, v_0)
// CHECK:      block_sum(block, s_3, v_3)
#pragma tfuse coarsen
__global__ void rows(const float *in, float *out, unsigned *pos, int n) {
  __shared__ float s[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  float v = 0.0f, m = -1e30f;
  for (int i = warp.thread_rank(); i < n; i += warp.size()) {
    v += in[row * n + i];
    m = max(m, in[row * n + i]);
  }
  v = cg::reduce(warp, v, cg::plus<float>());
  for (int o = 16; o > 0; o /= 2)
    m = max(m, warp.shfl_down(m, o));
  unsigned b = warp.ballot(v > 0.0f);
  warp.sync();
  if (warp.thread_rank() == 0) {
    out[row] = v + m;
    pos[row] = b;
  }
  float t = block_sum(block, s, v);
  if (block.thread_rank() == 0)
    out[gridDim.x * 8 + blockIdx.x] = t;
}

void run(const float *in, float *out, unsigned *pos, int n, int blocks) { rows<<<blocks, 256>>>(in, out, pos, n); }
