// A kernel of a header whose index and stride are macros naming the
// builtins (project/macros.test): tfuse expands those uses in the header's
// text, once for all the files that include it.
#pragma once
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define STRIDE (blockDim.x * gridDim.x)

#pragma tfuse coarsen
__global__ void scale(float *out, const float *in, int n) {
  for (int i = GID; i < n; i += STRIDE)
    out[i] = 2.0f * in[i];
}
