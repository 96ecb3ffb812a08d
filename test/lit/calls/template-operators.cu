// In a template kernel, `a[i] + b[i]` on a dependent type is a call of
// whichever operator+ the instantiation picks: with cuda_fp16.h included,
// the candidates are CUDA's half and bfloat16 operators (analysed from the
// table and their bodies), so the kernel is coarsened, not refused.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after=parse -kernel k %s | FileCheck --check-prefix=DUMP %s
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -kernel k -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -kernel k -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: CALL 'operator+'
// DUMP: CALL 'operator*'
// DUMP: CALL 'operator+='
// DUMP: CALL 'operator-'

// CHECK-LABEL: __global__ void k(
// CHECK:      T v_0 = TFUSE_GUARD(__tf_p1_0, a[i_0] + b[i_0] * a[i_0]);
// CHECK-NEXT: T v_1 = TFUSE_GUARD(__tf_p1_1, a[i_1] + b[i_1] * a[i_1]);
// CHECK-NEXT: if (__tf_p1_0) v_0 += b[i_0];
// CHECK-NEXT: if (__tf_p1_1) v_1 += b[i_1];
// CHECK-NEXT: if (__tf_p1_0) c[i_0] = -v_0;
// CHECK-NEXT: if (__tf_p1_1) c[i_1] = -v_1;
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <typename T>
__global__ void k(const T *a, const T *b, T *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    T v = a[i] + b[i] * a[i];
    v += b[i];
    c[i] = -v;
  }
}
void run(float *a, float *b, float *c, __half *h) {
  k<<<4, 64>>>(a, b, c, 5);
  k<<<4, 64>>>(h, h, h, 5);
}
