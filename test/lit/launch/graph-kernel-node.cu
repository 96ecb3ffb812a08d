// A kernel stored through a cast (a CUDA graph's kernel node,
// `kp.func = (void *)square`) holds the kept original's address: the node
// runs the original on the configuration it is given, while the program's
// own <<<...>>> launch runs the coarsened kernel.  Both modes; the output
// builds.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK: __global__ void square__tf_orig(float *p, int n) {
// CHECK: square<<<
// CHECK: kp.func = (void *)square__tf_orig;

#pragma tfuse coarsen
__global__ void square(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= p[i];
}

void run(float *p, int n, cudaStream_t s) {
  square<<<(n + 255) / 256, 256, 0, s>>>(p, n);
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaKernelNodeParams kp = {};
  void *args[] = {&p, &n};
  kp.func = (void *)square;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphNode_t node;
  cudaGraphAddKernelNode(&node, graph, nullptr, 0, &kp);
}
