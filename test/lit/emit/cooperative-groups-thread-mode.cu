// Thread mode with whole warps (the stride mapping along x, blockDim.x / K a
// multiple of 32, which each launch checks) rewrites per copy what the
// coarsening changes in cooperative groups' queries: the block's
// thread_rank, size / num_threads / cg::group_size, thread_index and
// group_dim / dim_threads, and the meta_group_rank / meta_group_size of a
// tile partitioned from the block, each becoming its value over the copy's
// logical index and the logical extent, cast to the type CUDA's headers
// return.  A tile partitioned from a tile numbers itself by its lanes,
// which stay: its meta_group_* are emitted as written, as are a tile's
// thread_rank and size.  What stays refused:
// refuse/cooperative-groups-thread-mode.cu.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.2.cu
// RUN: FileCheck %s --check-prefixes=BOTH,K2 < %t.2.cu
// RUN: %nvcc-check %t.2.cu
// RUN: %tfuse -factor 4 -mode thread %t.in.cu -o %t.4.cu
// RUN: FileCheck %s --check-prefixes=BOTH,K4 < %t.4.cu
// RUN: %nvcc-check %t.4.cu

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// One row per warp: the warp's index among the block's is its row, their
// number the rows a block covers (llm.c's softmax kernels).  The store
// through a pointer loaded from memory, which tfuse does not follow, cannot
// write `warp`, whose address is never taken.
// BOTH-LABEL: __global__ void rows(
// K2:      int row_0 = blockIdx.x * ((unsigned int)(((blockDim.x * 2) * blockDim.y * blockDim.z + 31u) / 32u)) + ((unsigned int)(((threadIdx.x) + (blockDim.x * 2) * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u));
// K2-NEXT: int row_1 = blockIdx.x * ((unsigned int)(((blockDim.x * 2) * blockDim.y * blockDim.z + 31u) / 32u)) + ((unsigned int)(((threadIdx.x + 1 * blockDim.x) + (blockDim.x * 2) * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u));
// K4:      int row_3 = blockIdx.x * ((unsigned int)(((blockDim.x * 4) * blockDim.y * blockDim.z + 31u) / 32u)) + ((unsigned int)(((threadIdx.x + 3 * blockDim.x) + (blockDim.x * 4) * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u));
// BOTH:      float s_0 = TFUSE_GUARD(__tf_live_0, cg::reduce(warp_0, v_0, cg::plus<float>()));
// BOTH:      (warp_1.thread_rank() == 0);
#pragma tfuse coarsen
__global__ void rows(const float *in, float *out, float *const *more, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= n)
    return;
  float v = in[row * 32 + warp.thread_rank()];
  float s = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) {
    out[row] = s;
    more[0][row] = s;
  }
}

// The block's rank and size, by member and by free function; a tile's
// type that names its parent; a tile of a tile (as written).
// BOTH-LABEL: __global__ void ranks(
// K2:      unsigned int i_1 = ((unsigned int)((threadIdx.x + 1 * blockDim.x) + (blockDim.x * 2) * (threadIdx.y + blockDim.y * threadIdx.z)));
// K2:      unsigned long long n_1 = ((unsigned int)((blockDim.x * 2) * blockDim.y * blockDim.z));
// K2:      unsigned int t_1 = ((unsigned int)((blockDim.x * 2) * blockDim.y * blockDim.z)) + ((unsigned int)((threadIdx.x + 1 * blockDim.x) + (blockDim.x * 2) * (threadIdx.y + blockDim.y * threadIdx.z)));
// K4:      unsigned int i_2 = ((unsigned int)((threadIdx.x + 2 * blockDim.x) + (blockDim.x * 4) * (threadIdx.y + blockDim.y * threadIdx.z)));
// K4:      unsigned int t_3 = ((unsigned int)((blockDim.x * 4) * blockDim.y * blockDim.z)) + ((unsigned int)((threadIdx.x + 3 * blockDim.x) + (blockDim.x * 4) * (threadIdx.y + blockDim.y * threadIdx.z)));
// K2:      unsigned int m_1 = ((unsigned int)(((threadIdx.x + 1 * blockDim.x) + (blockDim.x * 2) * (threadIdx.y + blockDim.y * threadIdx.z)) / 16u)) + half_1.meta_group_rank() * ((unsigned int)(((blockDim.x * 2) * blockDim.y * blockDim.z + 15u) / 16u)) + half_1.meta_group_size();
#pragma tfuse coarsen
__global__ void ranks(unsigned *out) {
  cg::thread_block block = cg::this_thread_block();
  unsigned int i = block.thread_rank();
  unsigned long long n = block.size();
  for (; i < 4096; i += n)
    out[i] += 1;
  unsigned int t = cg::group_size(block) + cg::thread_rank(block);
  auto sixteen = cg::tiled_partition<16>(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::thread_block_tile<8> half = cg::tiled_partition<8>(warp);
  unsigned int m = sixteen.meta_group_rank() + half.meta_group_rank() * sixteen.meta_group_size() + half.meta_group_size();
  out[4096 + block.num_threads() * blockIdx.x + block.thread_rank()] = t + m;
}

// The block's index and extent as dim3, with a block of several rows.
// BOTH-LABEL: __global__ void grid2d(
// K2:      dim3 t_1 = dim3((threadIdx.x + 1 * blockDim.x), threadIdx.y, threadIdx.z);
// K2:      dim3 d_1 = dim3((blockDim.x * 2), blockDim.y, blockDim.z);
// K4:      dim3 t_3 = dim3((threadIdx.x + 3 * blockDim.x), threadIdx.y, threadIdx.z);
// K4:      dim3 d_3 = dim3((blockDim.x * 4), blockDim.y, blockDim.z);
// K2:      int w_1 = dim3((blockDim.x * 2), blockDim.y, blockDim.z).x;
#pragma tfuse coarsen
__global__ void grid2d(int *out) {
  cg::thread_block block = cg::this_thread_block();
  dim3 t = block.thread_index();
  dim3 d = block.group_dim();
  int x = blockIdx.x * d.x + t.x;
  int y = t.y;
  int w = block.dim_threads().x;
  out[(y * gridDim.x * w) + x] = (int)(t.z * 1000 + d.y);
}

// Each launch checks that blockDim.x / K is whole warps.
// BOTH-LABEL: void run(
// BOTH:      rows<<<n, ::tfuse_rt::coarsen_block_warps(256, 0, {{[24]}}u, "rows", "{{.*}}")>>>(in, out, &out, n);
// BOTH:      ranks<<<n, ::tfuse_rt::coarsen_block_warps(128, 0, {{[24]}}u, "ranks", "{{.*}}")>>>(u);
// BOTH:      grid2d<<<n, ::tfuse_rt::coarsen_block_warps(dim3(128, 2), 0, {{[24]}}u, "grid2d", "{{.*}}")>>>(o);
void run(const float *in, float *out, unsigned *u, int *o, int n) {
  rows<<<n, 256>>>(in, out, &out, n);
  ranks<<<n, 128>>>(u);
  grid2d<<<n, dim3(128, 2)>>>(o);
}
