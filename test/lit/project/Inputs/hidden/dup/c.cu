__global__ void solo(float *x) { x[threadIdx.x] = 0.0f; }
void run_c(float *x) { solo<<<1, 32>>>(x); }
