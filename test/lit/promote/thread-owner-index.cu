// Register promotion (DESIGN.md section 6) in thread mode: every store to A
// is at the owner's index A[y][x] (y, x: copies of threadIdx.y/.x, never
// written), and the launch's dim3(32, 4) has blockDim.z = 1, so each copy
// keeps its element in a register, writes through to shared memory, and
// reads its own element from the register.  Reads of other threads'
// elements (A[x % 4][y]) stay shared loads.  Compound stores update the
// register first.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -dim y -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu

// REMARK: :[[# @LINE + 16]]:20: remark: shared array 'A' is promoted to registers: every store is at the owner's index A[y][x]

// CHECK-LABEL: __global__ void k(
// CHECK:      __shared__ float A[4][32];
// CHECK-NEXT: float A_reg_0, A_reg_1; /* tfuse: the copies' own elements of A[y][x], kept in registers */
// CHECK:      const float [[IN:__tf_u[0-9]+]] = in[x]; /* tfuse: the same for every copy, loaded once */
// CHECK-NEXT: A[y_0][x] = A_reg_0 = [[IN]];
// CHECK-NEXT: A[y_1][x] = A_reg_1 = [[IN]];
// CHECK-NEXT: A[y_0][x] = A_reg_0 += 1.0f;
// CHECK-NEXT: A[y_1][x] = A_reg_1 += 1.0f;
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: out[y_0 * 32 + x] = A_reg_0 + A[x % 4][y_0];
// CHECK-NEXT: out[y_1 * 32 + x] = A_reg_1 + A[x % 4][y_1];

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  __shared__ float A[4][32];
  int x = threadIdx.x, y = threadIdx.y;
  A[y][x] = in[x];
  A[y][x] += 1.0f;
  __syncthreads();
  out[y * 32 + x] = A[y][x] + A[x % 4][y];
}

void host(const float *in, float *out) {
  k<<<1, dim3(32, 4)>>>(in, out);
}
