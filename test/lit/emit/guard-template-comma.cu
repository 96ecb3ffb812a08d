// A guarded initializer whose text holds a comma outside parentheses (the
// template arguments of `fetch<int, float>(...)`) would be split by the
// preprocessor as TFUSE_GUARD's argument: tfuse parenthesizes it there, and
// only there.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

template <class T, class U> __device__ U fetch(const T *p, int i) { return (U)p[i]; }

// CHECK: float c_1 = TFUSE_GUARD(__tf_p1_1, (fetch<int, float>(in, i_1)));
// CHECK: float d_1 = TFUSE_GUARD(__tf_p1_1, in[i_1] * 0.5f);
#pragma tfuse coarsen
__global__ void k(const int *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float c = fetch<int, float>(in, i);
    float d = in[i] * 0.5f;
    out[i] = c + d;
  }
}

void run(const int *in, float *out, int n) { k<<<(n + 127) / 128, 128>>>(in, out, n); }
