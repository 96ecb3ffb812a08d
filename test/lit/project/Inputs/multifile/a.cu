static __global__ void k(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1.0f; }
void run_a(float *p, int n, int b) { k<<<(n + b - 1) / b, b>>>(p, n); }
