// IDX unlike x.cu: which text the header would get depends on the file.
#define IDX (threadIdx.x + blockDim.x * blockIdx.x)
#include "indexed.cuh"

void run_z(float *out, int n) { fill<<<(n + 63) / 64, 64>>>(out, n); }
