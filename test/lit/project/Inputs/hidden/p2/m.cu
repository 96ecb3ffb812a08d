#define DEF(n) __global__ void n(float *x) { x[threadIdx.x] += 1.0f; }
DEF(mk)
void r(float *x) { mk<<<1, 32>>>(x); }
