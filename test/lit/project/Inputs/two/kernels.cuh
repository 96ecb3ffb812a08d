// A kernel defined in a header, launched from a.cu and sub/b.cu
// (project/two-files.test).  Helpers of the header are analysed with it.
#pragma once

__device__ inline float twice(float v) { return 2.0f * v; }

#pragma tfuse coarsen
__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = twice(in[i]);
}
