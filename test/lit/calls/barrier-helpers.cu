// A helper that calls __syncthreads() is a barrier where the kernel calls
// it.  Emitted once (uniform arguments, nothing written) it is one barrier;
// emitted once per copy, the copies' calls run one after the other, and
// every thread passes every copy's barriers in the same order.  Block mode
// accepts that (each copy is a logical block of its own); thread mode only
// for a helper that writes nothing, since a copy's call would pass its
// barrier before the later copies' writes.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck --check-prefix=THREAD %s

// BLOCK-LABEL: __global__ void k(
// BLOCK:      sync();
// BLOCK:      float w_0 = stage(sh_0, v_0);
// BLOCK-NEXT: float w_1 = TFUSE_GUARD(__tf_ok_1, stage(sh_1, v_1));
// BLOCK-NEXT: float z_0 = peek(sh_0);
// BLOCK-NEXT: float z_1 = TFUSE_GUARD(__tf_ok_1, peek(sh_1));
// BLOCK-NEXT: float c = peek(table);

__device__ void sync() { __syncthreads(); }
__device__ float stage(float *sh, float v) {
  sh[threadIdx.x] = v;
  __syncthreads();
  float r = sh[(threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  return r;
}
__device__ float peek(const float *sh) { __syncthreads(); return sh[0]; }
__device__ float table[4];

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, int n) {
  __shared__ float sh[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  sync();
// THREAD: barrier-helpers.cu:[[@LINE+1]]:13: error: 'stage' calls __syncthreads() and writes memory: in thread mode each copy's call would pass its barrier before the later copies' calls have made their writes
  float w = stage(sh, v);
  float z = peek(sh);
  float c = peek(table);
  out[i] = w + z + c;
}

void run(float *out, const float *in, int n) { k<<<n / 128, 128>>>(out, in, n); }
