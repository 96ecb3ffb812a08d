// A coarsened kernel used other than by a <<<...>>> launch (here its
// address kept in a variable and launched through cudaLaunchKernel from
// there) must be refused: that launch cannot be rewritten, so it would call
// the coarsened kernel with the original grid and without the grid-extent
// argument.  (cudaLaunchKernel naming the kernel itself is rewritten:
// launch/runtime-api.cu.)
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

void host(float *p, int n) {
  void *args[] = {&p, &n};
// CHECK: kernel-address-taken.cu:[[@LINE+1]]:33: error: 'k' is used here other than in a <<<...>>> launch
  const void *f = (const void *)k;
  cudaLaunchKernel(f, dim3(8), dim3(32), args, 0, 0);
}
