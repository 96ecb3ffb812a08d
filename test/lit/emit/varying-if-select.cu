// A varying if/else whose branches each assign one and the same place,
// with side-effect-free operands of one arithmetic type, becomes one
// select per copy (`L = c ? e1 : e2`, which C++17 evaluates in the same
// order), with no predicates and no branches.  A promoted store keeps its
// register.  Branches of different types (int and float) stay predicated,
// since a select would convert both through their common type first.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -dim y %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      A[y_0][x] = A_reg_0 = (y_0 == i) ? (s) : (A_reg_0 - s);
// CHECK-NEXT: A[y_1][x] = A_reg_1 = (y_1 == i) ? (s) : (A_reg_1 - s);
// CHECK:      const bool __tf_p{{[0-9]+}}_0 = (y_0 == i);
// CHECK:      if (__tf_p{{[0-9]+}}_0) out[y_0] = n;

#pragma tfuse coarsen
__global__ void k(float *out, int i, int n) {
  __shared__ float A[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  A[y][x] = out[x];
  __syncthreads();
  float s = A[i][x];
  if (y == i)
    A[y][x] = s;
  else
    A[y][x] = A[y][x] - s;
  if (y == i)
    out[y] = n;
  else
    out[y] = s;
  __syncthreads();
  out[y * 32 + x] = A[y][x];
}

void host(float *out, int i, int n) { k<<<1, dim3(32, 8)>>>(out, i, n); }
