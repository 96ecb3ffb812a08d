// Shared variables of every declarator form are replicated in block mode
// with their whole declarator per copy: a pointer, an array of pointers, a
// pointer to an array, an array of pointers to arrays, a struct, a union,
// an array of structs, a 2-D array, a typedef of an array (whose writes
// through t[i] are writes of t: it is an array, seen through the alias), a
// typedef of a pointer, volatile and const-qualified elements.
// -layout interleaved puts the copies' dimension after the array's own
// dimensions inside the declarator (`int (*ap[1][4][2])[4]`) and keeps a
// typedef'd array in one array per copy.  Thread mode keeps one of each.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -layout interleaved -report %t.in.cu -o %t.ilv.cu 2> %t.ilv.err
// RUN: FileCheck %s --check-prefix=ILV < %t.ilv.cu
// RUN: FileCheck %s --check-prefix=ILV-REPORT < %t.ilv.err
// RUN: %nvcc-check %t.ilv.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -check -factor 2 %t.in.cu -o %t.check.cu
// RUN: FileCheck %s --check-prefix=CHK < %t.check.cu
// RUN: %nvcc-check %t.check.cu
// RUN: %tfuse -factor auto -tune-space "block.x.interleaved:2 block.x:2 thread.x:2" %t.in.cu -o %t.auto.cu
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.cu
// RUN: %nvcc-check %t.auto.cu

// CHECK-LABEL: __global__ void forms(
// CHECK:      __shared__ int *a_0[4];
// CHECK-NEXT: __shared__ int *a_1[4];
// CHECK-NEXT: __shared__ float *p_0;
// CHECK-NEXT: __shared__ float *p_1;
// CHECK-NEXT: __shared__ int (*pa_0)[4];
// CHECK-NEXT: __shared__ int (*pa_1)[4];
// CHECK-NEXT: __shared__ int (*ap_0[4])[4];
// CHECK-NEXT: __shared__ int (*ap_1[4])[4];
// CHECK-NEXT: __shared__ S s_0;
// CHECK-NEXT: __shared__ S s_1;
// CHECK-NEXT: __shared__ U u_0;
// CHECK-NEXT: __shared__ U u_1;
// CHECK-NEXT: __shared__ S sa_0[4];
// CHECK-NEXT: __shared__ S sa_1[4];
// CHECK-NEXT: __shared__ float m_0[4][8];
// CHECK-NEXT: __shared__ float m_1[4][8];
// CHECK-NEXT: __shared__ F64 t_0;
// CHECK-NEXT: __shared__ F64 t_1;
// CHECK-NEXT: __shared__ IP ip_0;
// CHECK-NEXT: __shared__ IP ip_1;
// CHECK-NEXT: __shared__ volatile int vv_0[4];
// CHECK-NEXT: __shared__ volatile int vv_1[4];
// CHECK-NEXT: __shared__ const int *cp_0[4];
// CHECK-NEXT: __shared__ const int *cp_1[4];
// CHECK:      t_0[threadIdx.x] = i_0;
// CHECK-NEXT: t_1[threadIdx.x] = __tf_ok_1 ? (i_1) : 0;
// CHECK:      if (__tf_ok_1) ap_1[k] = (int (*)[4])(g + 4 * i_1);
// CHECK:      out[i_0] = *a_0[k] + *p_0 + (*pa_0)[1] + (*ap_0[k])[2] + s_0.x + u_0.i + sa_0[k].x + m_0[k][1] + t_0[63 - threadIdx.x] + *ip_0 + vv_0[k] + *cp_0[k];
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = *a_1[k] + *p_1 + (*pa_1)[1] + (*ap_1[k])[2] + s_1.x + u_1.i + sa_1[k].x + m_1[k][1] + t_1[63 - threadIdx.x] + *ip_1 + vv_1[k] + *cp_1[k];

// ILV-LABEL: __global__ void forms(
// ILV:      __shared__ int *__align__(16) a[1][4][2];
// ILV-NEXT: __shared__ float *p_0;
// ILV:      __shared__ int (*__align__(16) ap[1][4][2])[4];
// ILV:      __shared__ float __align__(16) m[1][4][8][2];
// ILV-NEXT: __shared__ F64 t_0;
// ILV-NEXT: __shared__ F64 t_1;
// ILV:      __shared__ volatile int __align__(16) vv[1][4][2];
// ILV-NEXT: __shared__ const int *__align__(16) cp[1][4][2];
// ILV:      if (__tf_ok_1) out[i_1] = *a[0][k][1] + *p_1 + (*pa_1)[1] + (*ap[0][k][1])[2] + s_1.x + u_1.i + sa_1[k].x + m[0][k][1][1] + t_1[63 - threadIdx.x] + *ip_1 + vv[0][k][1] + *cp[0][k][1];
// ILV-REPORT: remark: -layout interleaved: shared array 't' keeps one array per copy: its dimensions are not all written after its name (a type alias of an array)

// -check and -factor auto emit the same replicas beside the original.
// CHK-LABEL: __global__ void forms(
// CHK:       __shared__ int (*ap_1[4])[4];
// CHK-LABEL: __global__ void forms__tf_orig(
// CHK:       __shared__ int (*ap[4])[4];
// AUTO-LABEL: __global__ void forms__tf_bx2i(
// AUTO:       __shared__ int (*__align__(16) ap[1][4][2])[4];
// AUTO:       __shared__ F64 t_1;
// AUTO-LABEL: __global__ void forms__tf_bx2(
// AUTO:       __shared__ int (*ap_1[4])[4];

// THREAD-LABEL: __global__ void forms(
// THREAD:      __shared__ int (*ap[4])[4];
// THREAD:      __shared__ F64 t;
// THREAD:      t[(threadIdx.x + 1 * blockDim.x)] = i_1;

struct S { int x; float y; };
union U { int i; float f; };
typedef float F64[64];
typedef int *IP;
#pragma tfuse coarsen
__global__ void forms(int *g, float *out) {
  __shared__ int *a[4];
  __shared__ float *p;
  __shared__ int (*pa)[4];
  __shared__ int (*ap[4])[4];
  __shared__ S s;
  __shared__ U u;
  __shared__ S sa[4];
  __shared__ float m[4][8];
  __shared__ F64 t;
  __shared__ IP ip;
  __shared__ volatile int vv[4];
  __shared__ const int *cp[4];
  unsigned k = threadIdx.x % 4;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i;
  if (threadIdx.x < 4) {
    a[k] = g + i;
    ap[k] = (int (*)[4])(g + 4 * i);
    sa[k].x = i;
    m[k][1] = i;
    vv[k] = i;
    cp[k] = g + i;
  }
  if (threadIdx.x == 0) {
    p = out + blockIdx.x;
    pa = (int (*)[4])(g + 4 * blockIdx.x);
    s.x = blockIdx.x;
    u.i = blockIdx.x;
    ip = g + blockIdx.x;
  }
  __syncthreads();
  out[i] = *a[k] + *p + (*pa)[1] + (*ap[k])[2] + s.x + u.i + sa[k].x + m[k][1] + t[63 - threadIdx.x] + *ip + vv[k] + *cp[k];
}
int main() { forms<<<8, 64>>>(0, 0); }
