// In a host template, the runtime's functions name a template kernel
// through a dependent name (`k<T>`), which clang resolves only per
// instantiation: such a use is k's when every candidate is k's template and
// k has no explicit specialization (as for launches), and is then
// rewritten as any other (a query names the kept original, k__tf_orig<T>);
// otherwise refused at the name (here k<int> is specialized, and coarsened
// too, but it is a kernel of its own).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: sed 's#^// WITH-SPECIALIZATION ##; s#^//.*##' %s > %t.spec.cu
// RUN: not %tfuse -factor 2 %t.spec.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=SPEC

// BLOCK-LABEL: void run(T *p, int n) {
// BLOCK:      [&]() -> cudaError_t { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); const dim3 __tf_grid = (n / 256); const dim3 __tf_block = (256); void **__tf_args = (args); const void *__tf_f = (const void *)((void *)k<T>); if (!(::tfuse_rt::serves_threads(__tf_f, __tf_block, __tf_fb))) return cudaLaunchKernel((const void *)((void *)k__tf_orig<T>), __tf_grid, __tf_block, __tf_args, 0, 0); {{.*}} return cudaLaunchKernel(__tf_f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_argv, 0, 0); }();
// BLOCK:      return cudaLaunchKernelEx(&__tf_cfg, k<T>, __tf_ext0, p, n); }();
// BLOCK-NEXT: int nb;
// BLOCK-NEXT: cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig<T>, 256, 0);
// THREAD-LABEL: void run(T *p, int n) {
// THREAD:      cudaLaunchKernel((void *)k<T>, n / 256, ::tfuse_rt::coarsen_block(256, 0, 2u, "k", "{{.*}}"), args, 0, 0);
// THREAD:      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k__tf_orig<T>, 256, 0);
// SPEC: :[[@LINE+15]]:28: error: 'k' may be named here, in a host template, where an instantiation may also name another function (an overload, an explicit specialization); tfuse refuses to coarsen the kernel

#include <cuda_runtime.h>
#pragma tfuse coarsen
template <typename T>
__global__ void k(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1;
}
// WITH-SPECIALIZATION #pragma tfuse coarsen
// WITH-SPECIALIZATION template <> __global__ void k<int>(int *out, int n) { out[0] = n; }

template <typename T>
void run(T *p, int n) {
  void *args[] = {&p, &n};
  cudaLaunchKernel((void *)k<T>, n / 256, 256, args, 0, 0);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / 256);
  cfg.blockDim = dim3(256);
  cudaLaunchKernelEx(&cfg, k<T>, p, n);
  int nb;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k<T>, 256, 0);
}

int main() {
  float *p = nullptr;
  run(p, 1024);
  return 0;
}
