// cg::reduce and the scans call their operator inside CUDA's headers.  A
// function of the program's as the operator (llm.c's softmax_forward:
// `cg::reduce(warp, sm_partial, reduce_sum_max_op)`) is followed into its
// code (legality.c cg_function_operator_known): accepted where it reads
// nothing the mode changes and computes without effects (stores to its
// locals, pure functions, implicit copies of a struct); refused where it
// reads blockIdx in block mode (not in thread mode, which keeps the block
// index) or writes memory.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.block.cu 2> %t.block.err
// RUN: FileCheck --check-prefix=BLOCK-ERR %s < %t.block.err
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.in.cu -o %t.thread.cu 2> %t.thread.err
// RUN: FileCheck --check-prefix=THREAD-ERR %s < %t.thread.err
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// BLOCK-ERR-DAG: warning: kernel 'reads_block' left unchanged: cooperative groups ('reduce'): its operator is not one of cooperative groups' (cg::plus, cg::less, ...)
// BLOCK-ERR-DAG: warning: kernel 'writes' left unchanged: cooperative groups ('reduce'): its operator is not one
// BLOCK-ERR-NOT: kernel 'online' left unchanged
// BLOCK: SumMax sm_total_0 = TFUSE_GUARD(__tf_live_0, cg::reduce(warp, sm_partial_0, reduce_sum_max_op));
// BLOCK-NEXT: SumMax sm_total_1 = TFUSE_GUARD(__tf_ok_1 && __tf_live_1, cg::reduce(warp, sm_partial_1, reduce_sum_max_op));

// THREAD-ERR: warning: kernel 'writes' left unchanged: cooperative groups ('reduce'): its operator is not one
// THREAD-ERR-NOT: left unchanged
// THREAD: SumMax sm_total_1 = TFUSE_GUARD(__tf_live_1, cg::reduce(warp_1, sm_partial_1, reduce_sum_max_op));
// THREAD-LABEL: __global__ void reads_block(
// THREAD: cg::reduce(warp_1, in[blockIdx.x * (blockDim.x * 2) + (threadIdx.x + 1 * blockDim.x)], by_block);

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cmath>
namespace cg = cooperative_groups;
struct __align__(8) SumMax {
  float maxval;
  float sum;
};
__device__ __forceinline__ SumMax reduce_sum_max_op(SumMax a, SumMax b) {
  bool a_bigger = (a.maxval > b.maxval);
  SumMax bigger_m = a_bigger ? a : b;
  SumMax smaller_m = a_bigger ? b : a;
  SumMax res;
  res.maxval = bigger_m.maxval;
  res.sum = bigger_m.sum + smaller_m.sum * expf(smaller_m.maxval - bigger_m.maxval);
  return res;
}
__device__ float by_block(float a, float b) { return a + b + blockIdx.x; }
__device__ int counter;
__device__ float with_effect(float a, float b) { counter++; return a + b; }

__global__ void online(float *out, const float *inp, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N)
    return;
  const float *x = inp + idx * C;
  SumMax sm_partial;
  sm_partial.maxval = -INFINITY;
  sm_partial.sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size())
    sm_partial = reduce_sum_max_op(sm_partial, {x[i], 1.0f});
  SumMax sm_total = cg::reduce(warp, sm_partial, reduce_sum_max_op);
  for (int i = warp.thread_rank(); i < C; i += warp.size())
    out[idx * C + i] = expf(x[i] - sm_total.maxval) / sm_total.sum;
}

__global__ void reads_block(float *out, const float *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  out[blockIdx.x * blockDim.x + threadIdx.x] = cg::reduce(warp, in[blockIdx.x * blockDim.x + threadIdx.x], by_block);
}

__global__ void writes(float *out, const float *in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  out[blockIdx.x * blockDim.x + threadIdx.x] = cg::reduce(warp, in[blockIdx.x * blockDim.x + threadIdx.x], with_effect);
}

void launch(float *out, const float *in, int N, int C) {
  online<<<N / 8, 256>>>(out, in, N, C);
  reads_block<<<N / 256, 256>>>(out, in);
  writes<<<N / 256, 256>>>(out, in);
}
