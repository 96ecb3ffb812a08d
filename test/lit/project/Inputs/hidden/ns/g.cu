namespace ns1 { __global__ void k(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; } }
using ns1::k;
void run_g(float *x) { k<<<4, 64>>>(x); }
