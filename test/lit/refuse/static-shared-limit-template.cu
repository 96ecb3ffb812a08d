// A shared array whose size depends on a template argument has no size
// tfuse can read: K copies may pass the 48 KB a block may declare
// statically, which only ptxas would notice.  tfuse puts a static assertion
// with the limit after the last such declaration and parses its output
// once more: an instantiation that fails it (here mm<32> at K = 8: 2 x 8 x
// 4 KB) is refused at the kernel, naming the instantiation, and nothing is
// written.  At K = 4 every instantiation fits; the assertion stays in the
// output, which nvcc compiles.  Thread mode replicates nothing.
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 8 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor 4 %s -o %t.k4.cu
// RUN: FileCheck --check-prefix=K4 %s < %t.k4.cu
// RUN: %nvcc-check %t.k4.cu
// RUN: %tfuse -factor 8 -mode thread %s -o %t.t8.cu
// RUN: FileCheck --check-prefix=T8 %s < %t.t8.cu
// RUN: %nvcc-check %t.t8.cu

// CHECK: static-shared-limit-template.cu:[[@LINE+11]]:{{[0-9]+}}: error: coarsened by 8, 'mm' (instantiated as 'mm<32>') would declare more than 48 KB of static __shared__ memory (its replicated arrays' sizes depend on template arguments), over what a block may declare statically; use a smaller -factor
// CHECK-NOT: error:

// K4: __shared__ float As_3[BS][BS];
// K4: __shared__ float Bs_3[BS][BS];
// K4-NEXT: static_assert(4 * sizeof(float[BS][BS]) + 4 * sizeof(float[BS][BS]) + 0 <= 48 * 1024, "tfuse-shared-limit: 'mm' coarsened by 4 declares more than 48 KB of static __shared__ memory; use a smaller -factor");
// K4-NEXT: int tx = threadIdx.x

// T8: {{^ +}}__shared__ float Bs[BS][BS];
// T8-NOT: static_assert(
#pragma tfuse coarsen
template <int BS> __global__ void mm(float *c, const float *a) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  As[ty][tx] = a[row * 1024 + col];
  Bs[ty][tx] = a[col * 1024 + row];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < BS; k++)
    s += As[ty][k] * Bs[k][tx];
  c[row * 1024 + col] = s;
}

void run(float *c, const float *a, int big) {
  if (big)
    mm<32><<<dim3(32, 32), dim3(32, 32)>>>(c, a);
  else
    mm<16><<<dim3(64, 64), dim3(16, 16)>>>(c, a);
}
