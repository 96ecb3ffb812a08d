#include "k.h"
#pragma tfuse coarsen
__global__ void scale(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= 2.0f; }
void run(float *p, int n) { scale<<<(n + 127) / 128, 128>>>(p, n); }
