// CUDA's intrinsics and math are analysed from effects.c's table, not
// refused: a pure function or a load (__ldg) of uniform arguments is
// uniform and emitted once; a read of memory other threads write (__ldcv),
// a clock, an atomic and printf run once per copy.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after=uniform %s | FileCheck --check-prefix=DUMP %s
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: VAR 'a' <{{[0-9:]+}}> [uniform]
// DUMP: VAR 'b' <{{[0-9:]+}}> [uniform]
// DUMP: VAR 'c' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'd' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'e' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'f' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'g' <{{[0-9:]+}}> [uniform]
// DUMP: VAR 'h' <{{[0-9:]+}}> [uniform]

// CHECK-LABEL: __global__ void k(
// CHECK:      float a = sinf(s) + fmaxf(s, 1.0f);
// CHECK-NEXT: float b = __ldg(&p[0]);
// CHECK-NEXT: float c_0 = __ldg(&p[(blockIdx.x * 2)]);
// CHECK-NEXT: float c_1 = TFUSE_GUARD(__tf_ok_1, __ldg(&p[(blockIdx.x * 2 + 1)]));
// CHECK-NEXT: float d_0 = __ldcv(&p[0]);
// CHECK-NEXT: float d_1 = __ldcv(&p[0]);
// CHECK-NEXT: long long e_0 = clock64();
// CHECK-NEXT: long long e_1 = clock64();
// CHECK-NEXT: int f_0 = atomicAdd(cnt, 1);
// CHECK-NEXT: int f_1 = TFUSE_GUARD(__tf_ok_1, atomicAdd(cnt, 1));
// CHECK-NEXT: float g = __fdividef(s, 3.0f) + __half2float(__float2half(s)) + __expf(s);
// CHECK-NEXT: int h = __popc((unsigned)s) + min(3, (int)s) + __mul24(2, (int)s);
// CHECK-NEXT: printf("%f\n", a);
// CHECK-NEXT: if (__tf_ok_1) printf("%f\n", a);
#include <cstdio>
#include <cuda_fp16.h>

#pragma tfuse coarsen
__global__ void k(const float *p, float *out, int *cnt, float s) {
  float a = sinf(s) + fmaxf(s, 1.0f);
  float b = __ldg(&p[0]);
  float c = __ldg(&p[blockIdx.x]);
  float d = __ldcv(&p[0]);
  long long e = clock64();
  int f = atomicAdd(cnt, 1);
  float g = __fdividef(s, 3.0f) + __half2float(__float2half(s)) + __expf(s);
  int h = __popc((unsigned)s) + min(3, (int)s) + __mul24(2, (int)s);
  printf("%f\n", a);
  out[blockIdx.x] = a + b + c + d + (float)e + f + g + h;
}

void run(const float *p, float *out, int *cnt, int n) { k<<<n, 64>>>(p, out, cnt, 2.0f); }
