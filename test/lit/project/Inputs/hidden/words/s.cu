__global__ void sum(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }
void run_s(float *x) { sum<<<4, 64>>>(x); }
