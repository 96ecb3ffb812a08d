// Thread mode: the grid is kept and the block goes through
// tfuse_rt::coarsen_block(block, dim, K, kernel, site), which divides the
// coarsened dimension by K and stops with a message naming the kernel and
// the launch site (file:line) when it does not divide.  No argument is
// added.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: inline dim3 coarsen_block(dim3 block, int d, unsigned int k, const char *kernel, const char *site)
// CHECK-LABEL: void host(float *p, int n, cudaStream_t s) {
// CHECK-NEXT: dim3 block(32, 8);
// CHECK-NEXT: k<<<n, ::tfuse_rt::coarsen_block(block, 1, 4u, "k", "{{.*}}.in.cu:[[#@LINE+11]]")>>>(p);
// CHECK-NEXT: k<<<dim3(n, 2), ::tfuse_rt::coarsen_block(dim3(32, 8), 1, 4u, "k", "{{.*}}.in.cu:[[#@LINE+11]]"), 0, s>>>(p);
// CHECK-NEXT: }

#pragma tfuse coarsen factor(4) mode(thread) dim(y)
__global__ void k(float *out) {
  out[(blockIdx.y * blockDim.y + threadIdx.y) * 32 + threadIdx.x] = 1.0f;
}

void host(float *p, int n, cudaStream_t s) {
  dim3 block(32, 8);
  k<<<n, block>>>(p);
  k<<<dim3(n, 2), dim3(32, 8), 0, s>>>(p);
}
