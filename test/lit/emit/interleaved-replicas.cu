// -layout interleaved (block mode): the n copies of a replicated shared
// array become one array with the copies' elements side by side, W = 4 at a
// time (2 where n is not a multiple of 4): `t[64]` at K = 4 is
// `t[1][64][4]` and copy r's `t[i]` is `t[r / 4][i][r % 4]`, so that the
// copies' reads of one statement can be a single vector load.  Only arrays
// whose every use names one element are laid out so; the others keep one
// array per copy, and -report says why.  An odd number of copies does not
// group.  The clause layout(interleaved) asks for it in the pragma.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -kernel a -kernel b -factor 4 -layout interleaved -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -kernel a -factor 6 -layout interleaved %t.in.cu -o %t.6.cu
// RUN: FileCheck --check-prefix=SIX %s < %t.6.cu
// RUN: %nvcc-check %t.6.cu
// RUN: %tfuse -kernel a -factor 3 -layout interleaved -report %t.in.cu -o %t.3.cu 2> %t.3.err
// RUN: FileCheck --check-prefix=THREE %s < %t.3.cu
// RUN: FileCheck --check-prefix=THREE-REMARK %s < %t.3.err
// The default layout is one array per copy; -layout separate on the
// command line overrides the pragma's layout(interleaved) of c.
// RUN: %tfuse -kernel a -factor 4 %t.in.cu -o %t.sep.cu
// RUN: %tfuse -kernel a -factor 4 -layout separate %t.in.cu -o %t.sep2.cu
// RUN: FileCheck --check-prefixes=SEP,SEP-PRAGMA %s < %t.sep.cu
// RUN: FileCheck --check-prefixes=SEP,SEP-CLI %s < %t.sep2.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.pragma.cu
// RUN: %tfuse -report %t.in.cu -o %t.cast.cu 2> %t.cast.err
// RUN: FileCheck --check-prefix=CAST %s < %t.cast.err
// RUN: FileCheck --check-prefix=CAST-OUT %s < %t.cast.cu
// RUN: %nvcc-check %t.cast.cu
// RUN: FileCheck --check-prefix=PRAGMA %s < %t.pragma.cu
// RUN: %nvcc-check %t.pragma.cu
#define AT(a, i) a[i]
struct P { float x, y; };
__device__ void bump(float &x) { x += 1.0f; }
__device__ float twice(const float &x) { return 2.0f * x; }

// CHECK-LABEL: __global__ void a(
// CHECK:      __shared__ float __align__(16) t[1][64][4];
// CHECK-NEXT: __shared__ int __align__(16) u[1][8][8][4];
// CHECK:      t[0][threadIdx.x][0] = in[i_0];
// CHECK-NEXT: t[0][threadIdx.x][1] = __tf_ok_1 ? (in[i_1]) : 0;
// CHECK-NEXT: t[0][threadIdx.x][2] = __tf_ok_2 ? (in[i_2]) : 0;
// CHECK-NEXT: t[0][threadIdx.x][3] = __tf_ok_3 ? (in[i_3]) : 0;
// CHECK-NEXT: u[0][threadIdx.x / 8][threadIdx.x % 8][0] = (int)in[i_0];
// CHECK:      (t[0])[threadIdx.x][0] += 1.0f;
// CHECK-NEXT: if (__tf_ok_1) (t[0])[threadIdx.x][1] += 1.0f;
// CHECK:      out[i_0] = fmaxf(t[0][63 - threadIdx.x][0], 0.0f) + u[0][threadIdx.x % 8][threadIdx.x / 8][0] + sizeof(t[0][0][0]);
// CHECK:      if (__tf_ok_3) out[i_3] = fmaxf(t[0][63 - threadIdx.x][3], 0.0f) + u[0][threadIdx.x % 8][threadIdx.x / 8][3] + sizeof(t[0][0][3]);
// REMARK: :[[@LINE+3]]:20: remark: shared array 't': its 4 copies interleaved, 4 side by side
// REMARK: :[[@LINE+3]]:18: remark: shared array 'u': its 4 copies interleaved, 4 side by side
__global__ void a(float *out, const float *in) {
  __shared__ float t[64];
  __shared__ int u[8][8];
  int i = blockIdx.x * 64 + threadIdx.x;
  t[threadIdx.x] = in[i];
  u[threadIdx.x / 8][threadIdx.x % 8] = (int)in[i];
  __syncthreads();
  (t)[threadIdx.x] += 1.0f;
  __syncthreads();
  out[i] = fmaxf(t[63 - threadIdx.x], 0.0f) + u[threadIdx.x % 8][threadIdx.x / 8] + sizeof(t[0]);
}
// SIX:      __shared__ float __align__(16) t[3][64][2];
// SIX-NEXT: __shared__ int __align__(16) u[3][8][8][2];
// SIX:      t[0][threadIdx.x][0] = in[i_0];
// SIX-NEXT: t[0][threadIdx.x][1] = __tf_ok_1 ? (in[i_1]) : 0;
// SIX-NEXT: t[1][threadIdx.x][0] = __tf_ok_2 ? (in[i_2]) : 0;
// SIX-NEXT: t[1][threadIdx.x][1] = __tf_ok_3 ? (in[i_3]) : 0;
// SIX-NEXT: t[2][threadIdx.x][0] = __tf_ok_4 ? (in[i_4]) : 0;
// SIX-NEXT: t[2][threadIdx.x][1] = __tf_ok_5 ? (in[i_5]) : 0;
// THREE:      __shared__ float t_0[64];
// THREE-NEXT: __shared__ float t_1[64];
// THREE-NEXT: __shared__ float t_2[64];
// THREE-REMARK: remark: -layout interleaved: shared array 't' keeps one array per copy: its 3 copies do not group by 2 or 4
// SEP:      __shared__ float t_0[64];
// SEP:      t_3[threadIdx.x] = __tf_ok_3 ? (in[i_3]) : 0;

// Each of these keeps one array per copy, except `macro`: tfuse expands a
// macro whose arguments vary, and its expansion names one element.
// CHECK-LABEL: __global__ void b(
// CHECK:      __shared__ float decayed_0[64];
// CHECK:      __shared__ float addressed_3[64];
// CHECK-NEXT: __shared__ float __align__(16) macro[1][64][4];
// CHECK-NEXT: __shared__ float byref_0[64];
// CHECK:      __shared__ float constref_0[64];
// CHECK:      __shared__ P pairs_0[64];
// CHECK:      __shared__ float two_0[64], declarators_0[64];
// CHECK:      const float *p_1 = decayed_1;
// CHECK:      if (__tf_ok_1) atomicAdd(&addressed_1[threadIdx.x], 1.0f);
// CHECK:      if (__tf_ok_1) bump(byref_1[threadIdx.x]);
// CHECK:      if (__tf_ok_1) out[i_1] = p_1[63 - threadIdx.x] + macro[0][threadIdx.x][1] + twice(constref_1[threadIdx.x]) +
// REMARK: :[[@LINE+25]]:20: remark: -layout interleaved: shared array 'decayed' keeps one array per copy: it is used other than to name one element (as a pointer, or in sizeof)
// REMARK: :[[@LINE+25]]:14: remark: -layout interleaved: shared array 'addressed' keeps one array per copy: the address of its element is taken
// REMARK: :[[@LINE+8]]:20: remark: shared array 'macro': its 4 copies interleaved, 4 side by side
// REMARK: :[[@LINE+24]]:8: remark: -layout interleaved: shared array 'byref' keeps one array per copy: its element is passed to a call that may take it by reference
// REMARK: :[[@LINE+24]]:61: remark: -layout interleaved: shared array 'constref' keeps one array per copy: its element is passed to a call that may take it by reference
// REMARK: :[[@LINE+8]]:16: remark: -layout interleaved: shared array 'pairs' keeps one array per copy: it is not an array of numbers or pointers
// REMARK: :[[@LINE+8]]:20: remark: -layout interleaved: shared array 'two' keeps one array per copy: it is not declared alone, in a statement of the kernel's body (not nested)
__global__ void b(float *out, const float *in) {
  __shared__ float decayed[64];
  __shared__ float addressed[64];
  __shared__ float macro[64];
  __shared__ float byref[64];
  __shared__ float constref[64];
  __shared__ P pairs[64];
  __shared__ float two[64], declarators[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  decayed[threadIdx.x] = in[i];
  addressed[threadIdx.x] = in[i];
  macro[threadIdx.x] = in[i];
  byref[threadIdx.x] = in[i];
  constref[threadIdx.x] = in[i];
  pairs[threadIdx.x].x = in[i];
  two[threadIdx.x] = in[i];
  declarators[threadIdx.x] = in[i];
  __syncthreads();
  const float *p = decayed;
  atomicAdd(&addressed[threadIdx.x], 1.0f);
  bump(byref[threadIdx.x]);
  out[i] = p[63 - threadIdx.x] + AT(macro, threadIdx.x) + twice(constref[threadIdx.x]) +
           pairs[threadIdx.x].x + two[0] + declarators[0] + byref[0] + addressed[0];
  {
    __shared__ float nested[64];
    nested[threadIdx.x] = in[i];
    __syncthreads();
    out[i] += nested[63 - threadIdx.x];
  }
}
// REMARK: :[[@LINE-6]]:22: remark: -layout interleaved: shared array 'nested' keeps one array per copy: it is not declared alone, in a statement of the kernel's body (not nested)

// SEP-PRAGMA: __shared__ double __align__(16) d[1][32][4];
// SEP-CLI:    __shared__ double d_0[32];
// PRAGMA-LABEL: __global__ void c(
// PRAGMA:      __shared__ double __align__(16) d[1][32][2];
// PRAGMA:      d[0][threadIdx.x][1] = __tf_ok_1 ? (in[(blockIdx.x * 2 + 1) * 32 + threadIdx.x]) : 0;
// PRAGMA:      if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * 32 + threadIdx.x] = d[0][31 - threadIdx.x][1];
#pragma tfuse coarsen factor(2) layout(interleaved)
__global__ void c(double *out, const double *in) {
  __shared__ double d[32];
  d[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] = d[31 - threadIdx.x];
}

// An element reinterpreted through a reference cast (four floats read as
// one struct, an int read as a float) keeps one array per copy; a cast of
// the element's value does not.
// CAST: :[[@LINE+15]]:33: remark: -layout interleaved: shared array 'v4' keeps one array per copy: its element is cast to a reference or to a type other than a number
// CAST: :[[@LINE+7]]:20: remark: shared array 'byvalue': its 4 copies interleaved, 4 side by side
// CAST: :[[@LINE+14]]:63: remark: -layout interleaved: shared array 'refcast' keeps one array per copy: its element is cast to a reference or to a type other than a number
// CAST-OUT: __shared__ float __align__(16) byvalue[1][64][4];
struct F4 { float x, y, z, w; };
#pragma tfuse coarsen factor(4) layout(interleaved)
__global__ void d(float *out, const float *in) {
  __shared__ float v4[256];
  __shared__ float byvalue[64];
  __shared__ int refcast[64];
  int i = blockIdx.x * 64 + threadIdx.x;
  v4[threadIdx.x] = in[i];
  byvalue[threadIdx.x] = in[i];
  refcast[threadIdx.x] = (int)in[i];
  __syncthreads();
  F4 q = reinterpret_cast<F4 &>(v4[4 * (threadIdx.x % 16)]);
  out[i] = q.x + (double)byvalue[63 - threadIdx.x] + (float &)refcast[threadIdx.x];
}
