namespace ns1 { __global__ void k(float *x); }
namespace ns2 { __global__ void k(float *x) { x[threadIdx.x] += 1.0f; } }
void run_h(float *x) { void *args[] = {&x}; cudaLaunchKernel((void *)ns1::k, dim3(4), dim3(64), args, 0, 0); }
void run_h2(float *x) { ns2::k<<<1, 32>>>(x); }
