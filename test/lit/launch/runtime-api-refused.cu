// Uses of a coarsened kernel by the runtime's functions that tfuse cannot
// make exact are refused, each at the kernel's name (inside a macro's
// argument too; a name in a macro's body at that macro's use), naming the
// kernel and the reason: in block mode, the attributes of a kernel whose
// dynamic shared memory is divided among the logical blocks, a cluster
// extent, an attribute tfuse cannot read; a call in a macro's body; in
// cudaLaunchKernel of a kernel with a parameter pack in block mode; in
// thread mode with several coarsened dimensions, a thread count; with
// -check, a launch through cudaLaunchKernel.  Thread mode keeps the
// block-mode refusals' calls (the grid and shared memory are the
// original's).  Nothing is written.
// RUN: rm -f %t.out
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse -factor 2 %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: test ! -e %t.out
// RUN: not %tfuse -factor 2 -mode thread %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: not %tfuse -factor 2,2 -dim x,y -mode thread %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=XY
// RUN: not %tfuse -factor 2 -check -mode thread %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=CHECKMODE
// RUN: test ! -e %t.out

// BLOCK: :73:48: error: cudaFuncGetAttributes of 'dyn': block mode divides its dynamic shared memory among 2 logical blocks, so the coarsened kernel's shared sizes do not describe one; tfuse refuses to coarsen it
// BLOCK-NEXT: checkCudaErrors(cudaFuncGetAttributes(&attr, dyn));
// BLOCK-NEXT: {{^                                               \^}}
// BLOCK: :74:40: error: cudaFuncSetAttribute of 'cluster' sets RequiredClusterWidth: a cluster's extent must divide the grid, which block mode rescales; tfuse refuses to coarsen it in block mode
// BLOCK: :76:24: error: cudaFuncSetAttribute of 'cluster' sets which: tfuse cannot tell which attribute this is; tfuse refuses to coarsen it in block mode
// BLOCK: :77:19: error: 'plain' is passed to cudaFuncGetAttributes in a macro's body; tfuse cannot rewrite it there, so it refuses to coarsen the kernel; expand the macro by hand
// BLOCK: :78:35: error: 'plain' is used here other than in a <<<...>>> launch or as a function pointer's value; tfuse cannot rescale such a launch, so it refuses to coarsen the kernel
// BLOCK: :82:28: error: tfuse cannot count the arguments of 'pack' (a parameter pack) to pass the grid extent first in this cudaLaunchKernel; tfuse refuses to coarsen the kernel
// THREAD-NOT: 'dyn'
// THREAD-NOT: 'cluster'
// THREAD: :77:19: error: 'plain' is passed to cudaFuncGetAttributes in a macro's body
// THREAD: :78:35: error: 'plain' is used here other than in a <<<...>>> launch
// XY: :73:48: error: cudaFuncGetAttributes of 'dyn': thread mode with several coarsened dimensions
// XY: :79:70: error: cudaOccupancyMaxActiveBlocksPerMultiprocessor of 'cluster': thread mode with several coarsened dimensions divides a block along each, which one thread count does not describe; tfuse refuses to coarsen the kernel
// CHECKMODE: :81:34: error: -check cannot route this launch of 'cluster' through cudaLaunchKernel; write it as cluster<<<...>>>(...)

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
  int n = 1024, nb = 0;
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, dyn));
  checkCudaErrors(cudaFuncSetAttribute(cluster, cudaFuncAttributeRequiredClusterWidth, 2));
  cudaFuncAttribute which = cudaFuncAttributeMaxDynamicSharedMemorySize;
  cudaFuncSetAttribute(cluster, which, 0);
  checkCudaErrors(GET(&attr));
  const void *raw = (const void *)plain;
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, cluster, 256, 0));
  void *args[] = {&p, &n};
  cudaLaunchKernel((const void *)cluster, dim3(4), dim3(256), args, 0, 0);
  cudaLaunchKernel((void *)pack<int>, dim3(4), dim3(256), args, 0, 0);
  (void)raw;
  plain<<<n / 256, 256>>>(p, n);
  dyn<<<n / 256, 256, 1024>>>(p, n);
  return 0;
}
