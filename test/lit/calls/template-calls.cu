// Calls in a template kernel whose callee depends on the template's
// parameters are analysed over every function the name may call: a
// template helper by its body, CUDA's `max` overloads from the table.
// assert and printf run once per copy.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after=parse -kernel k %s | FileCheck --check-prefix=DUMP %s
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -kernel k -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -kernel k -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: CALL 'sq'
// DUMP: CALL 'max'
// DUMP: CALL '__assert_fail'

// CHECK-LABEL: __global__ void k(
// CHECK:      T v_0 = TFUSE_GUARD(__tf_p1_0, sq(a[i_0]) + max(a[i_0], T(0)));
// CHECK-NEXT: T v_1 = TFUSE_GUARD(__tf_p1_1, sq(a[i_1]) + max(a[i_1], T(0)));
// CHECK-NEXT: if (__tf_p1_0) assert(v_0 >= 0);
// CHECK-NEXT: if (__tf_p1_1) assert(v_1 >= 0);
// CHECK:      if (__tf_p2_0) printf("bad %d\n", i_0);
// CHECK-NEXT: if (__tf_p2_1) printf("bad %d\n", i_1);
// CHECK:      T w = sq(s) + max(s, T(1));

// THREAD-LABEL: __global__ void k(
// THREAD:      if (__tf_p1_0) assert(v_0 >= 0);
// THREAD-NEXT: if (__tf_p1_1) assert(v_1 >= 0);
#include <cstdio>
#include <cassert>
template <typename T> __device__ T sq(T x) { return x * x; }
template <typename T>
__global__ void k(const T *a, T *c, int n, T s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T v = sq(a[i]) + max(a[i], T(0));
    assert(v >= 0);
    if (v < 0) printf("bad %d\n", i);
    c[i] = v;
  }
  T w = sq(s) + max(s, T(1));
  if (i == 0) c[n] = w;
}
void run(float *a, float *c, int *ai, int *ci) {
  k<float><<<10, 128>>>(a, c, 5, 2.0f);
  k<<<10, 128>>>(ai, ci, 5, 3);
}

// A dependent call whose candidates are using-declarations (`using
// std::exp;` in <math.h>) is known by the name they bring in.
// RUN: %tfuse -kernel sig -factor 2 %t.in.cu -o %t.sig.cu
// RUN: FileCheck --check-prefix=SIG %s < %t.sig.cu
// SIG-LABEL: __global__ void sig(
// SIG: o[i_0] = sigmoid(o[i_0]);
// SIG-NEXT: if (__tf_ok_1) o[i_1] = sigmoid(o[i_1]);
#include <math.h>
template <typename T> __device__ T sigmoid(T in) { T one = static_cast<T>(1.0); return one / (one + exp(-in)); }
__global__ void sig(float *o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = sigmoid(o[i]); }
void run_sig(float *o) { sig<<<2, 64>>>(o); }
