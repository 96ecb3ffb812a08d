__global__ void scale_kernel(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= 3.0f; }
void run_q(float *x) { scale_kernel<<<4, 64>>>(x); }
