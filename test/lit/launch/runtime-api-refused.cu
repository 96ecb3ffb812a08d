// Uses of a coarsened kernel by the runtime's functions that tfuse cannot
// make exact are refused, each at the kernel's name (inside a macro's
// argument too; a name in a macro's body at that macro's use), naming the
// kernel, the function and the reason: in block mode, cudaFuncGetName (no
// kernel of the output has the original's name) and an attribute tfuse
// cannot read; in every mode, a function tfuse does not model
// (cudaGetFuncBySymbol, whose handle launches the kernel), a call in a
// macro's body (a graph node's func stored through a cast holds the kept
// original: launch/graph-kernel-node.cu); in cudaLaunchKernel of a kernel with a parameter pack in block
// mode; with -check, a launch through cudaLaunchKernel.  Thread mode keeps
// the block-mode refusals' calls (the coarsened kernel keeps the original's
// name, grid and shared memory).  Nothing is written.
// RUN: rm -f %t.out
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse -factor 2 %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: test ! -e %t.out
// RUN: not %tfuse -factor 2 -mode thread %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: not %tfuse -factor 2 -check -mode thread %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECKMODE
// RUN: test ! -e %t.out

// BLOCK: :76:43: error: 'dyn' is passed to cudaFuncGetName: the coarsened kernel takes the grid extents first, and the original tfuse keeps is renamed, so neither has the original's name; tfuse refuses to coarsen the kernel
// BLOCK-NEXT: checkCudaErrors(cudaFuncGetName(&fname, dyn));
// BLOCK-NEXT: {{^                                          \^}}
// BLOCK: :77:62: error: 'cluster' is passed to cudaGetFuncBySymbol, which tfuse does not model: it may launch or describe the kernel, which runs coarsened; tfuse refuses to coarsen the kernel
// BLOCK: :79:24: error: cudaFuncSetAttribute of 'cluster' sets which: tfuse cannot tell which attribute this is; tfuse refuses to coarsen it in block mode
// BLOCK: :80:19: error: 'plain' is passed to cudaFuncGetAttributes in a macro's body; tfuse cannot rewrite it there, so it refuses to coarsen the kernel; expand the macro by hand
// BLOCK-NOT: :81:35: error
// BLOCK-NOT: :82:23: error
// BLOCK: :85:28: error: tfuse cannot count the arguments of 'pack' (a parameter pack) to pass the grid extent first in this cudaLaunchKernel; tfuse refuses to coarsen the kernel
// THREAD-NOT: cudaFuncGetName
// THREAD: :77:62: error: 'cluster' is passed to cudaGetFuncBySymbol
// THREAD-NOT: sets which
// THREAD: :80:19: error: 'plain' is passed to cudaFuncGetAttributes in a macro's body
// THREAD-NOT: :82:23: error
// CHECKMODE: :84:34: error: -check cannot route this launch of 'cluster' through cudaLaunchKernel; write it as cluster<<<...>>>(...)

#include <cuda_runtime.h>
#include <cstdio>
#define checkCudaErrors(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) std::printf("error %d\n", (int)e_); } while (0)
#define GET(a) cudaFuncGetAttributes(a, plain)

#pragma tfuse coarsen
__global__ void plain(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

#pragma tfuse coarsen
__global__ void dyn(float *out, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? out[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

#pragma tfuse coarsen
__global__ void cluster(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f;
}

#pragma tfuse coarsen
template <typename... A>
__global__ void pack(float *out, A... a) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 3.0f;
}

int main() {
  float *p = nullptr;
  int n = 1024;
  cudaFuncAttributes attr;
  const char *fname = nullptr;
  cudaFunction_t handle;
  cudaKernelNodeParams node = {};
  checkCudaErrors(cudaFuncGetName(&fname, dyn));
  checkCudaErrors(cudaGetFuncBySymbol(&handle, (const void *)cluster));
  cudaFuncAttribute which = cudaFuncAttributeMaxDynamicSharedMemorySize;
  cudaFuncSetAttribute(cluster, which, 0);
  checkCudaErrors(GET(&attr));
  const void *raw = (const void *)plain;
  node.func = (void *)dyn;
  void *args[] = {&p, &n};
  cudaLaunchKernel((const void *)cluster, dim3(4), dim3(256), args, 0, 0);
  cudaLaunchKernel((void *)pack<int>, dim3(4), dim3(256), args, 0, 0);
  (void)raw;
  (void)node;
  plain<<<n / 256, 256>>>(p, n);
  dyn<<<n / 256, 256, 1024>>>(p, n);
  return 0;
}
