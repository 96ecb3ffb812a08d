#include "common.h"

#pragma tfuse coarsen
__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}

void run_a(float *p, int n, int b) {
  LAUNCH(scale, (n + 127) / 128, 128, p, n);
  LAUNCH_CHECKED(scale, (n + b - 1) / b, b, p, n);
}
