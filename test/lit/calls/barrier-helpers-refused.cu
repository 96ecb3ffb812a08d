// A helper that calls __syncthreads() is refused where a barrier would be:
// under control that differs between the copies, and after a return only
// some copies take (the call is then guarded by the copies' live flags,
// and a thread would skip its returned copies' barriers while the block's
// other threads wait).
// RUN: not %tfuse -factor 2 -mode block %s -o %t.out 2>&1 | FileCheck %s

__device__ float stage(float *sh, float v) {
  sh[threadIdx.x] = v;
  __syncthreads();
  return sh[(threadIdx.x + 1) % blockDim.x];
}

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, int n) {
  __shared__ float sh[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
// CHECK: barrier-helpers-refused.cu:[[@LINE+2]]:18: error: 'stage' calls __syncthreads(), under control that differs between the copies: the merged blocks would need different barriers
// CHECK: barrier-helpers-refused.cu:[[@LINE+1]]:3: note: this condition depends on the logical block index
  if (v > 0) v = stage(sh, v);
  if (i >= n)
    return;
// CHECK: barrier-helpers-refused.cu:[[@LINE+1]]:13: error: 'stage' calls __syncthreads() after a return that only some copies take: a thread would skip the barriers of its returned copies
  float w = stage(sh, v);
  out[i] = w;
}
