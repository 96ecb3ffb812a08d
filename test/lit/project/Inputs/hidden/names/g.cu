__global__ void copy(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
void run_g(float *x) { copy<<<4, 64>>>(x); }
