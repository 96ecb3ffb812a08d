// -check and a helper's non-const reference parameters: a store to one is
// the call site's.  Bound to a local (cuda-samples' BlackScholesBodyGPU
// writes its results into the caller's locals), it writes nothing the
// launch must track, and the launch keeps the plain track calls; bound to
// an element of a pointer argument, it writes that argument's allocation;
// bound to an element reached through a pointer made from an integer, it is
// the untraced blind spot, at the call.  A value a call returns, bound to
// a move assignment's `float2 &&` (`out[i] = make_float2(..)`), is a
// temporary: writing it is no blind spot, nor is a braced list
// (`d[i] = {x, y, z}`, hec-rodrigues), an arithmetic value or a cast to a
// type that is no reference (`out[i] = (floatX)v` with floatX a bf16, the
// form of llm.c's kernels) bound to one.  A call whose result may be a
// reference (a template's `decltype(auto)`) is not followed: a store to
// it is the untraced blind spot.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 2 -all-kernels %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

#include <cuda_bf16.h>

// CHECK:      ::tfuse_rt::Check __tf_check("body_into_locals",
// CHECK-NEXT: __tf_check.track_as(o, "out", TFUSE_CHECK_FLOAT, 4);
// CHECK-NEXT: body_into_locals__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("braced",
// CHECK-NEXT: __tf_check.track_as(o3, "d", TFUSE_CHECK_FLOAT, 4);
// CHECK-NEXT: braced__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("cast_to_class",
// CHECK-NEXT: __tf_check.track(ob, "out");
// CHECK-NEXT: cast_to_class__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("returned_reference",
// CHECK-NEXT: __tf_check.blind(TFUSE_CHECK_UNTRACED, "a store through a pointer tfuse cannot trace to an argument or a __device__ variable, at {{.*}}.in.cu:[[# @LINE + 46]]");
// CHECK-NEXT: returned_reference__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("body_into_argument",
// CHECK-NEXT: __tf_check.track(a, "out");
// CHECK-NEXT: body_into_argument__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("body_through_integer",
// CHECK-NEXT: __tf_check.blind(TFUSE_CHECK_UNTRACED, "a call's argument pointing where tfuse cannot trace, at {{.*}}.in.cu:[[# @LINE + 55]]");
// CHECK-NEXT: body_through_integer__tf_orig<<<

__device__ inline void body(float &call, float &put, float s, float x) {
  call = s - x;
  put = x - s;
}

__global__ void body_into_locals(float2 *out, const float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float c, p;
    body(c, p, s[i], 1.0f);
    out[i] = make_float2(c, p);
  }
}

__global__ void braced(float3 *d, const float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = s[i];
    d[i] = {x, 2.0f * x, -x};
  }
}

typedef __nv_bfloat16 floatX;
__global__ void cast_to_class(floatX *out, const float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (floatX)(2.0f * s[i]);
}

struct Pair {
  float a, b;
};
template <class P> __device__ decltype(auto) first(P &q) { return (q.a); }
__global__ void returned_reference(float *out, const float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Pair q{0.0f, 1.0f};
    first(q) = s[i];
    out[i] = q.a + q.b;
  }
}

__global__ void body_into_argument(float *out, const float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    body(out[2 * i], out[2 * i + 1], s[i], 1.0f);
}

__global__ void body_through_integer(unsigned long long addr, const float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float *r = reinterpret_cast<float *>(addr);
    body(r[i], r[n + i], s[i], 1.0f);
  }
}

void run(float2 *o, float3 *o3, floatX *ob, float *r, float *a, unsigned long long addr, const float *s, int n) {
  body_into_locals<<<(n + 127) / 128, 128>>>(o, s, n);
  braced<<<(n + 127) / 128, 128>>>(o3, s, n);
  cast_to_class<<<(n + 127) / 128, 128>>>(ob, s, n);
  returned_reference<<<(n + 127) / 128, 128>>>(r, s, n);
  body_into_argument<<<(n + 127) / 128, 128>>>(a, s, n);
  body_through_integer<<<(n + 127) / 128, 128>>>(addr, s, n);
}
