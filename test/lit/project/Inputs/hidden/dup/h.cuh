#define DEFINE_K(n, v) __global__ void n(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] += v; }
DEFINE_K(k1, 1.0f)
DEFINE_K(k2, 2.0f)
