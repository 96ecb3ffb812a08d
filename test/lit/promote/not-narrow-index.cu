// Not promoted: `c` is a char copy of threadIdx.x, which wraps for threads
// past 127, so s[c] is not one element per thread.  A postfix update whose
// value is used is not promoted either (second kernel).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -kernel k2 -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu

// REMARK: :[[# @LINE + 10]]:3: remark: shared array 's' is not promoted to registers: this store to s[c] is not at the storing thread's own index
// REMARK: :[[# @LINE + 18]]:12: remark: shared array 'u' is not promoted to registers: the value of this postfix update is used

// CHECK-NOT:  _reg

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  __shared__ float s[256];
  char c = threadIdx.x;
  int i = blockIdx.x * 256 + threadIdx.x;
  s[c] = in[i];
  __syncthreads();
  out[i] = s[c];
}

__global__ void k2(float *out) {
  __shared__ float u[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  u[t] = 1.0f;
  out[i] = u[t]++;
  out[i] += u[t];
}

void host(const float *in, float *out) {
  k<<<8, 256>>>(in, out);
  k2<<<8, 256>>>(out);
}
