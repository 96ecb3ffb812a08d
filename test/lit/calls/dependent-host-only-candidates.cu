// A dependent call in a kernel template: among the functions its name may
// call, those that are host code only (no __device__, not constexpr) are
// not candidates in device code (nvcc would reject the call), so their
// bodies (here one that recurses, one that calls an unknown member) no
// longer refuse the kernel. A constexpr host function stays a candidate
// (nvcc's --expt-relaxed-constexpr lets device code call it), and so does
// every candidate when none is device code.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -kernel k %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: not %tfuse -factor 2 -kernel k2 %t.in.cu -o %t.k2.cu 2>&1 | FileCheck --check-prefix=CONSTEXPR %s

// The constexpr candidate is kept: its recursion refuses k2.
// CONSTEXPR: error: recursive call to 'thrice': a coarsened kernel cannot recurse

// CHECK-LABEL: __global__ void k(
// CHECK:      out[i_0] = twice(in[i_0]);
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = twice(in[i_1]);
struct Big { int v; };
int twice(Big b) { return twice(Big{b.v - 1}) + 1; }              // host only, recursive
template <class S> int twice(S *s) { return s->grow(); }            // host only, unknown member
__device__ float twice(float x) { return 2.0f * x; }
constexpr double twice(double x) { return x + x; }

template <class T>
__global__ void k(T *out, const T *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = twice(in[i]);
}

__device__ float thrice(float x) { return 3.0f * x; }
constexpr int thrice(int x) { return x ? thrice(x - 1) + 3 : 0; }

template <class T>
__global__ void k2(T *out, const T *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = thrice(in[i]);
}

void run(float *o, const float *i) {
  k<<<4, 64>>>(o, i);
  k2<<<4, 64>>>(o, i);
}
