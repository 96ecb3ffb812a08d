#define DEFINE_SCALE(n) __global__ void n(float *x) { int i = blockIdx.x * blockDim.x + threadIdx.x; x[i] *= 2.0f; }
DEFINE_SCALE(twice)
