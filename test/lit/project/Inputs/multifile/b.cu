static __global__ void k(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= 3.0f; }
void run_b(float *p, int n) { k<<<(n + 255) / 256, 256>>>(p, n); }
