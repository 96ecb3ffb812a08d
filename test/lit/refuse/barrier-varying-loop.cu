// __syncthreads() inside a loop whose trip count differs between the copies
// is refused, in thread mode too (the note names the thread index there).
// RUN: rm -f %t.out
// RUN: not %tfuse -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *out) {
  __shared__ float s[256];
// CHECK: barrier-varying-loop.cu:[[@LINE+4]]:5: error: __syncthreads() under control that differs between the copies: the merged threads would need different barriers
// CHECK: barrier-varying-loop.cu:[[@LINE+1]]:3: note: this statement depends on the logical thread index
  for (int j = 0; j < threadIdx.x; j++) {
    s[threadIdx.x] += 1.0f;
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}
