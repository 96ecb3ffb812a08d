// Not promoted: the array's address escapes (a row decays to a pointer
// passed to a function), so tfuse cannot see every store.  -report points
// at the use.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -dim y -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu

// REMARK: :[[# @LINE + 13]]:9: remark: shared array 'A' is not promoted to registers: it is used here other than as an element access, so its address may escape

// CHECK-LABEL: __global__ void k(
// CHECK-NOT:  _reg

__device__ void scale(float *row, int x) { row[x] *= 2.0f; }

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  __shared__ float A[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  A[y][x] = in[y * 32 + x];
  __syncthreads();
  scale(A[y], x);
  __syncthreads();
  out[y * 32 + x] = A[y][x];
}

void host(const float *in, float *out) { k<<<1, dim3(32, 8)>>>(in, out); }
