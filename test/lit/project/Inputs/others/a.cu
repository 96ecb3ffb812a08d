__global__ void k1(float *x) { x[threadIdx.x] *= 2.0f; }
__global__ void k2(float *x) { x[threadIdx.x] += 2.0f; }
void run(float *x) { k1<<<4, 32>>>(x); k2<<<4, 32>>>(x); }
