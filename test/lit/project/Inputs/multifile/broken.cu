__global__ void z(float *p) { p[threadIdx.x] = undefined_name; }
