// -factor auto with a template kernel whose shared arrays' sizes depend on
// its template arguments: each candidate carries the 48 KB static_assert,
// the output is parsed once more, and a candidate that an instantiation
// would take over the limit is refused with its factor named (once per
// factor, at the kernel, with the first instantiation that fails), nothing
// written. With the factors below it (-candidates) the output is written,
// its assertions hold, and nvcc compiles it.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: rm -f %t.out
// RUN: not %tfuse -factor auto -kernel mm %t.in.cu -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor auto -candidates 2,4 -kernel mm %t.in.cu -o %t.cu
// RUN: FileCheck --check-prefix=OK %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-DAG: .in.cu:[[#L:]]:{{[0-9]+}}: error: -factor auto: candidate factor 8 of 'mm' (instantiated as 'mm__tf_bx8<32>') would declare more than 48 KB of static __shared__ memory (its replicated arrays' sizes depend on template arguments); leave it out with -candidates (factors below 8)
// CHECK-DAG: .in.cu:[[#L]]:{{[0-9]+}}: error: -factor auto: candidate factor 16 of 'mm' (instantiated as 'mm__tf_bx16<
// CHECK-NOT: candidate factor 8
// CHECK-NOT: candidate factor 16

// OK: static_assert(4 * sizeof(float[BS][BS]) + 4 * sizeof(float[BS][BS]) + 0 <= 48 * 1024,
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
