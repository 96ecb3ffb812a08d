// A coarsened kernel used other than by a <<<...>>> launch (here launched
// through cudaLaunchKernel with its address) must be refused: that launch
// cannot be rewritten, so it would call the coarsened kernel with the
// original grid and without the grid-extent argument.
// Expected to fail: tfuse accepts the file, adds __tf_grid_x to the kernel
// and leaves the cudaLaunchKernel call as it is; the output compiles, and
// the kernel then reads an argument that was never passed.
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
// CHECK: kernel-address-taken.cu:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}'k'
  cudaLaunchKernel((const void *)k, dim3(8), dim3(32), args, 0, 0);
}
