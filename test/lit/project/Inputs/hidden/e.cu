__global__ void other(float *x) { x[threadIdx.x] += 1.0f; }
void run_e(float *x) { other<<<2, 64>>>(x); }
