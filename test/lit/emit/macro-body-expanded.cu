// A macro whose body names a builtin tfuse rewrites (`blockIdx.x`) or one
// of the kernel's variables has no text at its use to rewrite: tfuse
// replaces such a use inside a coarsened kernel by its expansion (arguments
// expanded, `N` to 16, the result rescanned, as the preprocessor does) and coarsens
// that text. Uses whose bodies name neither stay as written (`N`, and
// `LD(a, i)`, whose `i` is in the argument's own text). Lines do not move.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      int i_0 = ((blockIdx.x * 2) * blockDim.x + threadIdx.x);
// CHECK-NEXT: int i_1 = ((blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x);
// CHECK-NEXT: float w_0 = (c)[(i_0 * 16) + blockIdx.y * __tf_grid_x] + LD(c, i_0);
// CHECK:      out[i_0] = w_0 + c[i_0 + 1];
// CHECK:      out[i_1] = w_1 + c[i_1 + 1];
// THREAD:     int i_0 = (blockIdx.x * (blockDim.x * 2) + (threadIdx.x));
// THREAD:     int i_1 = (blockIdx.x * (blockDim.x * 2) + (threadIdx.x + 1 * blockDim.x));

#define N 16
#define IDX (blockIdx.x * blockDim.x + threadIdx.x)
#define AT(p, j) (p)[(j) + blockIdx.y * gridDim.x]
#define LD(p, j) (p)[j]
#define NEXT c[i + 1]

#pragma tfuse coarsen
__global__ void k(float *c, float *out) {
  int i = IDX;
  float w = AT(c, i * N) + LD(c, i);
  out[i] = w + NEXT;
}

int main() {
  k<<<10, 128>>>(nullptr, nullptr);
  return 0;
}
