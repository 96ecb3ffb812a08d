// The cooperative-groups idiom of CUDA's samples,
//   cg::thread_block cta = cg::this_thread_block(); ... cg::sync(cta);
// is a barrier over the physical block, as __syncthreads() is: the handle
// is declared once (the same in every copy) and each cg::sync(cta) or
// cta.sync() is a barrier, emitted once under the same rules, in both
// modes.  What else block mode follows: cooperative-groups-block-mode.cu;
// what is refused: refuse/cooperative-groups.cu.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      cg::thread_block cta = cg::this_thread_block();
// CHECK:      s_0[threadIdx.x] = in[i_0];
// CHECK-NEXT: s_1[threadIdx.x] = __tf_ok_1 ? (in[i_1]) : 0;
// CHECK-NEXT: cg::sync(cta);
// CHECK:      cta.sync();
// THREAD:     cg::thread_block cta = cg::this_thread_block();
// THREAD:     cg::sync(cta);
// THREAD-NOT: cg::sync(cta);
// THREAD:     cta.sync();

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  cg::sync(cta);
  out[i] = s[127 - threadIdx.x];
  cta.sync();
  out[i] += s[(threadIdx.x + 1) % 128];
}

int main() {
  k<<<10, 128>>>(nullptr, nullptr);
  return 0;
}
