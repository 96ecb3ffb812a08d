// Not promoted: the owner's index s[t] uses only threadIdx.x, so it is one
// element per thread only if blockDim.y and blockDim.z are 1, and this
// launch's block comes from a function tfuse cannot see into.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu

// REMARK: :[[# @LINE + 17]]:3: remark: shared array 's' is not promoted to registers: its owner's index s[t] does not use threadIdx.y, and this launch may have blockDim.y > 1

// CHECK-LABEL: __global__ void k(
// CHECK-NOT:  _reg

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  __shared__ float s[64];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  s[t] = in[i];
  __syncthreads();
  out[i] = s[t] + s[63 - t];
}

dim3 block_shape();

void host(const float *in, float *out) {
  k<<<8, block_shape()>>>(in, out);
}
