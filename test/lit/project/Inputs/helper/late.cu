// The header comes after the kernel: a clone before the kernel could not
// see what the helper's text needs.
__device__ int tid();

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = tid();
  if (i < n)
    out[i] = 1.0f;
}

#include "idx.cuh"

void run(float *out, int n) { k<<<(n + 127) / 128, 128>>>(out, n); }
