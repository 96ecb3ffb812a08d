// The same `extern __shared__` array declared at file scope must be
// refused just the same.
// Expected to fail: tfuse accepts it and emits accesses to dyn_0 and dyn_1,
// which are declared nowhere (the output does not compile), e.g.
//   dyn_0[threadIdx.x] = (blockIdx.x * 2);
//   if (__tf_ok_1) dyn_1[threadIdx.x] = (blockIdx.x * 2 + 1);
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

// CHECK: extern-shared-file-scope.cu:[[@LINE+1]]:25: error: extern __shared__ 'dyn' must be replicated per logical block
extern __shared__ float dyn[];

#pragma tfuse coarsen
__global__ void k(float *out) {
  dyn[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
