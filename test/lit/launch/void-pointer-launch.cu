// A coarsened kernel's address kept in a variable through a cast
// (`const void *f = (const void *)k;`) and launched from there with
// cudaLaunchKernel: the variable holds the kept original, so that launch
// runs the original kernel on the grid and arguments it is given, as
// written, while the <<<...>>> launch runs the coarsened kernel.
// (cudaLaunchKernel naming the kernel itself is rewritten:
// launch/runtime-api.cu.)  Both modes; the output builds.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK: __global__ void k__tf_orig(float *out, int n) {
// CHECK: const void *f = (const void *)k__tf_orig;
// CHECK-NEXT: cudaLaunchKernel(f, dim3(8), dim3(32), args, 0, 0);

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

void host(float *p, int n) {
  void *args[] = {&p, &n};
  const void *f = (const void *)k;
  cudaLaunchKernel(f, dim3(8), dim3(32), args, 0, 0);
  k<<<n / 64, 64>>>(p, n);
}
