#include "idx.cuh"

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = tid();
  if (i < n)
    out[i] = 1.0f;
}

void run(float *out, int n) { k<<<(n + 127) / 128, 128>>>(out, n); }
