// __syncthreads() in uniform control is emitted once, between the copies'
// stores and loads: in block mode it separates the replicated tiles'
// writes from their reads, in thread mode the merged threads' accesses to
// the one shared tile.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -external-launches -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// BLOCK-LABEL: __global__ void k(
// BLOCK:      tile_3[threadIdx.x] = __tf_ok_3 ? (in[i_3]) : 0;
// BLOCK-NEXT: __syncthreads();
// BLOCK-NEXT: out[i_0] = tile_0[255 - threadIdx.x];
// BLOCK-NOT:  __syncthreads

// THREAD-LABEL: __global__ void k(
// THREAD:      tile[(threadIdx.x + 3 * blockDim.x)] = in[i_3];
// THREAD-NEXT: __syncthreads();
// THREAD-NEXT: out[i_0] = tile[255 - (threadIdx.x)];
// THREAD-NOT:  __syncthreads

#pragma tfuse coarsen factor(4)
__global__ void k(float *out, const float *in) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[255 - threadIdx.x];
}
