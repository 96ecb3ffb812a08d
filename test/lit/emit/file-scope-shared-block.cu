// A file-scope __shared__ array the kernel writes per logical block: block
// mode declares its replicas in the kernel and renames the kernel's own
// uses; thread mode keeps the one array.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

__shared__ int tile[96];

#pragma tfuse coarsen
__global__ void k(int *out, const int *in) {
  int i = blockIdx.x * 96 + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[(threadIdx.x + 1) % 96];
}

int main() {
  int *o = 0, *in = 0;
  k<<<13, 96>>>(o, in);
}

// BLOCK-LABEL: __global__ void k(
// BLOCK:       __shared__ decltype(tile) tile_0;
// BLOCK:       __shared__ decltype(tile) tile_1;
// BLOCK:       tile_1[threadIdx.x] = __tf_ok_1 ? (in[i_1]) : 0;
// BLOCK:       out[i_1] = tile_1[(threadIdx.x + 1) % 96];
// THREAD-LABEL: __global__ void k(
// THREAD:      tile[(threadIdx.x + 1 * blockDim.x)] = in[i_1];
