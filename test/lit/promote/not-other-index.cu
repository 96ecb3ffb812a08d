// Not promoted: a store at another thread's index (s[t ^ 1]) could change
// an element between its owner's write and the owner's re-read.  -report
// points at that store; the output keeps every shared load.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu

// REMARK: :[[# @LINE + 14]]:5: remark: shared array 's' is not promoted to registers: this store to s[t ^ 1] is not at the storing thread's own index, which is s[t]

// CHECK-LABEL: __global__ void k(
// CHECK-NOT:  _reg
// CHECK:      out[i_0] = s_0[t];
// CHECK-NOT:  _reg

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  __shared__ float s[64];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  s[t] = in[i];
  __syncthreads();
  if (t == 0)
    s[t ^ 1] = 0.0f;
  __syncthreads();
  out[i] = s[t];
}

void host(const float *in, float *out) { k<<<8, 64>>>(in, out); }
