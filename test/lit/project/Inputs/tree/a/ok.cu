// Three kernels: scale coarsens; fenced runs inline asm, which tfuse cannot
// see into; printed has its address taken for a use that is no launch.
// Those two stay as they are, and the file is written with scale's change.
#include <cstdio>
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

__global__ void fenced(float *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  asm volatile("membar.gl;");
}

__global__ void printed(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f; }

void run_a(float *x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
  fenced<<<n / 256, 256>>>(x);
  printed<<<n / 256, 256>>>(x);
  std::printf("%p\n", (void *)printed);
}
