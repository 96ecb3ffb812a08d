// A kernel that cannot be coarsened (a barrier under control that differs
// between the copies, and between the threads of one block), in a project
// whose other files can (project/all-or-nothing.test).
#include "kernels.cuh"

#pragma tfuse coarsen
__global__ void bad(float *a) {
  if (blockIdx.x * blockDim.x + threadIdx.x < 1000)
    __syncthreads();
  a[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}

void run_bad(float *a, float *out, const float *in, int n) {
  bad<<<n / 64, 64>>>(a);
  scale<<<n / 64, 64>>>(out, in, n);
}
