extern __device__ unsigned int hits;
__global__ void count(const float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n && p[i] > 0) atomicAdd(&hits, 1u); }
void run_c(const float *p, int n) { count<<<(n + 127) / 128, 128>>>(p, n); }
