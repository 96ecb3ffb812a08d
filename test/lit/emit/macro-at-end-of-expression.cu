// An expression whose last token comes from a macro use (`i < IDN(n)` with
// `#define IDN(z) z`, PolyBench's `i < _PB_NX`): libclang ends its extent
// where the use starts, and tfuse once emitted `(i_0 < )`. The extent now
// ends after the use, and the use is kept as written (or expanded, when
// its body names a kernel variable, as `_PB_NX` names `nx`).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      const bool __tf_p1_0 = (i_0 < IDN(n));
// CHECK-NEXT: const bool __tf_p1_1 = __tf_ok_1 && (i_1 < IDN(n));
// CHECK:      const bool __tf_p2_0 = (i_0 < nx);
// CHECK:      for (int j = 0; j < ny; j++)
// CHECK:      if (__tf_p2_0) tmp[i_0] += IDN(A[i_0 * NY + j]);

#define IDN(z) z
#define NX 4096
#define NY 4096
#define LOOP_BOUND(x, y) y
#define _PB_NX LOOP_BOUND(NX, nx)
#define _PB_NY LOOP_BOUND(NY, ny)

#pragma tfuse coarsen
__global__ void k(int n, int nx, int ny, const float *A, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < IDN(n))
    tmp[i] = 0;
  if (i < _PB_NX) {
    for (int j = 0; j < _PB_NY; j++)
      tmp[i] += IDN(A[i * NY + j]);
  }
}

int main() {
  k<<<16, 256>>>(4096, 4096, 4096, nullptr, nullptr);
  return 0;
}
