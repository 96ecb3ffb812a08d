// Block mode follows more of cooperative groups, each exactly (legality.c
// cg_block_refusal, coalesced_site; fuse.c grid_query_text):
//   - a type-erased thread_group, or a template's `Group &` parameter,
//     followed to every source (initializers, arguments of every call):
//     here the block and a tile of 16, each the same threads in every copy;
//     its sync may be the block's barrier and stays where one may be;
//     a helper `reduce_n(v, Group &g)` called with a tile of one warp
//     computes a warp value, taken out of the copy's guard as a warp
//     intrinsic is (`TFUSE_GUARD(__tf_ok_r, ...)` around it miscompiled on
//     the H200 at K = 8); with a tile of several warps it is a barrier;
//   - a tile of several warps (tiled_partition<64>) and a run-time tile
//     (tiled_partition(block, 16)): the block's threads, in every copy;
//     the former's making, sync and collectives are barriers over its warps;
//   - coalesced_threads(), labeled_partition, binary_partition and their
//     collectives under the original's control (uniform, or inside a loop
//     whose control differs between the copies: emitted whole per copy);
//   - the grid's queries, written out per copy from the logical block index
//     and the original grid extent, with the header's types.
// Thread mode refuses them all.  What stays refused in block mode:
// refuse/cooperative-groups.cu.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// Thread mode moves every logical thread: all of it stays refused there.
// RUN: not %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu 2>&1 | FileCheck %s --check-prefix=THREAD
// THREAD-DAG: error: 'sum_group' uses cooperative groups ('thread_rank'): its group is not the block or a tile of at most 32 threads
// THREAD-DAG: error: cooperative groups ('tiled_partition'): a tile of more than 32 threads, or of a size given at run time
// THREAD-DAG: error: 'agg_inc' uses cooperative groups ('coalesced_threads'): its group is not the block or a tile
// THREAD-DAG: error: cooperative groups ('labeled_partition'): its group is not the block or a tile
// THREAD-DAG: error: cooperative groups ('num_blocks'): its group is not the block or a tile

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ int sum_group(cg::thread_group g, int *x, int v) {
  unsigned lane = g.thread_rank();
  for (unsigned i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = v;
    g.sync();
    if (lane < i)
      v += x[lane + i];
    g.sync();
  }
  return v;
}

// CHECK-LABEL: __global__ void erased(
// CHECK:      int s_0 = sum_group(cta, ws_0, (int)cta.thread_rank() + (blockIdx.x * 2));
// CHECK-NEXT: int s_1 = TFUSE_GUARD(__tf_ok_1, sum_group(cta, ws_1, (int)cta.thread_rank() + (blockIdx.x * 2 + 1)));
// CHECK:      cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
// CHECK-NEXT: s_0 = sum_group(t16, ws_0 + (cta.thread_rank() - t16.thread_rank()), (int)(blockIdx.x * 2));
// CHECK-NEXT: if (__tf_ok_1) s_1 = sum_group(t16, ws_1 + (cta.thread_rank() - t16.thread_rank()), (int)(blockIdx.x * 2 + 1));
#pragma tfuse coarsen
__global__ void erased(int *out) {
  __shared__ int ws[128];
  cg::thread_block cta = cg::this_thread_block();
  int s = sum_group(cta, ws, (int)cta.thread_rank() + blockIdx.x);
  if (cta.thread_rank() == 0)
    out[2 * blockIdx.x] = s;
  cta.sync();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  s = sum_group(t16, ws + (cta.thread_rank() - t16.thread_rank()), (int)blockIdx.x);
  if (t16.thread_rank() == 0)
    atomicAdd(&out[2 * blockIdx.x + 1], s);
}

template <typename T, typename Group> __device__ T reduce_n(T in, Group &threads) {
  return cg::reduce(threads, in, cg::plus<T>());
}

// CHECK-LABEL: __global__ void tiles(
// CHECK:      cg::thread_group dyn = cg::tiled_partition(cta, 16);
// CHECK:      cg::thread_block_tile<64> wide = cg::tiled_partition<64>(cta);
// CHECK:      v_0 = reduce_n(v_0, warp);
// CHECK-NEXT: const auto __tf_w1 = reduce_n(v_1, warp); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: if (__tf_ok_1) v_1 = __tf_w1;
// CHECK:      w_0 = cg::reduce(wide, w_0, cg::plus<int>());
// CHECK-NEXT: w_1 = cg::reduce(wide, w_1, cg::plus<int>());
// CHECK-NEXT: wide.sync();
// CHECK-NEXT: cg::sync(dyn);
#pragma tfuse coarsen
__global__ void tiles(const int *in, int *out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
  cg::thread_group dyn = cg::tiled_partition(cta, 16);
  cg::thread_block_tile<64> wide = cg::tiled_partition<64>(cta);
  int i = blockIdx.x * 128 + threadIdx.x;
  int v = in[i];
  v = reduce_n(v, warp);
  int w = in[i];
  w = cg::reduce(wide, w, cg::plus<int>());
  wide.sync();
  cg::sync(dyn);
  out[i] = v + w + (int)(wide.meta_group_rank() * 1000 + dyn.thread_rank());
}

__device__ int agg_inc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int res = 0;
  if (active.thread_rank() == 0)
    res = atomicAdd(counter, active.size());
  return active.shfl(res, 0) + active.thread_rank();
}

// CHECK-LABEL: __global__ void coalesced(
// CHECK:      for (int i_0 = (((unsigned long long)blockIdx.z * gridDim.y * __tf_grid_x + (unsigned long long)blockIdx.y * __tf_grid_x + (unsigned long long)(blockIdx.x * 2)) * ((unsigned int)(blockDim.x * blockDim.y * blockDim.z)) + ((unsigned int)threadIdx.z * blockDim.y * blockDim.x + (unsigned int)threadIdx.y * blockDim.x + (unsigned int)threadIdx.x)); i_0 < n; i_0 += (((unsigned long long)__tf_grid_x * (gridDim.y * gridDim.z)) * ((unsigned int)(blockDim.x * blockDim.y * blockDim.z)))) {
// CHECK-NEXT:   if (src[i_0] > 0)
// CHECK-NEXT:     dst[agg_inc(nres)] = src[i_0];
// CHECK-NEXT:   auto part_0 = cg::binary_partition(warp, src[i_0] & 1);
// CHECK-NEXT:   int sum_0 = cg::reduce(part_0, src[i_0], cg::plus<int>());
// CHECK:      if (__tf_ok_1) for (int i_1 = {{.*}}(blockIdx.x * 2 + 1)) *
// CHECK:      cg::coalesced_group odd = cg::coalesced_threads();
// CHECK-NEXT: auto lab_0 = cg::labeled_partition(odd, (int)(threadIdx.x % 6));
// CHECK-NEXT: const auto [[L1:__tf_w[0-9]+]] = cg::labeled_partition(odd, (int)(threadIdx.x % 6)); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: auto lab_1 = [[L1]];
#pragma tfuse coarsen
__global__ void coalesced(int *dst, int *nres, int *sums, const int *src, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (int i = grid.thread_rank(); i < n; i += grid.size()) {
    if (src[i] > 0)
      dst[agg_inc(nres)] = src[i];
    auto part = cg::binary_partition(warp, src[i] & 1);
    int sum = cg::reduce(part, src[i], cg::plus<int>());
    if (part.thread_rank() == 0)
      atomicAdd(&sums[src[i] & 1], sum);
    warp.sync();
  }
  if (threadIdx.x % 2) {
    cg::coalesced_group odd = cg::coalesced_threads();
    auto lab = cg::labeled_partition(odd, (int)(threadIdx.x % 6));
    if (lab.thread_rank() == 0)
      atomicAdd(&sums[2 + blockIdx.x], (int)lab.size());
  }
}

// CHECK-LABEL: __global__ void grid_queries(
// CHECK:      out[(((unsigned long long)blockIdx.z * gridDim.y * __tf_grid_x + (unsigned long long)blockIdx.y * __tf_grid_x + (unsigned long long)(blockIdx.x * 2)) * ((unsigned int)(blockDim.x * blockDim.y * blockDim.z)) + ((unsigned int)threadIdx.z * blockDim.y * blockDim.x + (unsigned int)threadIdx.y * blockDim.x + (unsigned int)threadIdx.x))] =
// CHECK-NEXT:     (unsigned)((unsigned long long)blockIdx.z * gridDim.y * __tf_grid_x + (unsigned long long)blockIdx.y * __tf_grid_x + (unsigned long long)(blockIdx.x * 2)) + (unsigned)((unsigned long long)__tf_grid_x * (gridDim.y * gridDim.z)) * 10 +
// CHECK-NEXT:     dim3((blockIdx.x * 2), blockIdx.y, blockIdx.z).x * 100 + dim3(__tf_grid_x, gridDim.y, gridDim.z).x * 1000 +
// CHECK-NEXT:     dim3(__tf_grid_x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z).x + dim3((blockIdx.x * 2) * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y, blockIdx.z * blockDim.z + threadIdx.z).x +
// CHECK-NEXT:     (unsigned)(((unsigned long long)__tf_grid_x * (gridDim.y * gridDim.z)) * ((unsigned int)(blockDim.x * blockDim.y * blockDim.z))) + dim3(__tf_grid_x, gridDim.y, gridDim.z).y;
// CHECK:      if (__tf_ok_1) out[{{.*}}(blockIdx.x * 2 + 1)
#pragma tfuse coarsen
__global__ void grid_queries(unsigned *out) {
  cg::grid_group g = cg::this_grid();
  out[g.thread_rank()] =
      (unsigned)g.block_rank() + (unsigned)g.num_blocks() * 10 +
      g.block_index().x * 100 + g.dim_blocks().x * 1000 +
      g.dim_threads().x + g.thread_index().x +
      (unsigned)g.num_threads() + g.group_dim().y;
}

// The block from this_thread_block(scratch) in a template, whose type
// depends on the scratch's: still the block (cuda-samples' reduction).
// CHECK-LABEL: __global__ void scratch_tiles(
// CHECK:      auto cta = cg::this_thread_block(scratch);
// CHECK:      v_0 = reduce_n(v_0, wide_0);
// CHECK-NEXT: if (__tf_ok_1) v_1 = reduce_n(v_1, wide_1);
// CHECK:      cg::sync(cta);
#pragma tfuse coarsen
template <unsigned B> __global__ void scratch_tiles(const int *in, int *out) {
  __shared__ cg::block_tile_memory<B> scratch;
  auto cta = cg::this_thread_block(scratch);
  auto wide = cg::tiled_partition<64>(cta);
  int i = blockIdx.x * B + threadIdx.x;
  int v = in[i];
  v = reduce_n(v, wide);
  cg::sync(cta);
  out[i] = v;
}

void run(int *o, unsigned *u, const int *in, int n) {
  scratch_tiles<128><<<n, 128>>>(in, o);
  erased<<<n, 128, 0>>>(o);
  tiles<<<n, 128>>>(in, o);
  coalesced<<<n, 128>>>(o, o, o, in, n);
  grid_queries<<<n, 64>>>(u);
}
