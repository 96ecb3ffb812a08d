// Writes of a copy that does not take a branch must not be seen by that
// copy later: a variable written in the then-branch and read in the
// else-branch is written under the copy's predicate.  After a varying
// return, a store into a copy's replica of a shared array is a branch on
// the copy's live flag, not a value guard: the returned thread's logical
// block lives on and its other threads read the element left as it was.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void thenelse(
// CHECK:      if (__tf_p1_0) t_0 = 5;
// CHECK-NEXT: if (__tf_p1_1) t_1 = 5;
// CHECK-LABEL: __global__ void afterreturn(
// CHECK:      s_1[threadIdx.x] = __tf_ok_1 ? (in[i_1]) : 0;
// CHECK:      if (__tf_live_0) s_0[threadIdx.x] = 2.0f;
// CHECK-NEXT: if (__tf_ok_1 && __tf_live_1) s_1[threadIdx.x] = 2.0f;

#pragma tfuse coarsen
__global__ void thenelse(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  for (int j = 0; j < n; j++) {
    int t = 1;
    if (in[i + j] > 0) { t = 5; acc += t; } else { acc -= t; }
  }
  out[i] = acc;
}

#pragma tfuse coarsen
__global__ void afterreturn(float *out, const float *in) {
  __shared__ float s[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  if (in[i] < 0) return;
  s[threadIdx.x] = 2.0f;
  out[i] = s[(threadIdx.x + 1) % 64];
}

void run(int *o, const int *in, int n, float *f, const float *g) {
  thenelse<<<n, 64>>>(o, in, n);
  afterreturn<<<n, 64>>>(f, g);
}
