// -factor auto with a template kernel whose shared arrays' sizes depend on
// its template arguments: each candidate carries the 48 KB static_assert,
// the output is parsed once more, and a candidate that an instantiation
// would take over the limit is left out: the driver emits once more
// without it (a remark with -report names it and the instantiation that
// fails; the first emission's other remarks are not repeated).  The output
// holds the remaining candidates, its assertions hold, and nvcc compiles
// it; -candidates 2,4 gives the same kernels.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -kernel mm -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: FileCheck --check-prefix=OK %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor auto -candidates 2,4 -kernel mm %t.in.cu -o %t.24.cu
// RUN: FileCheck --check-prefix=OK %s < %t.24.cu
// RUN: %nvcc-check %t.24.cu

// REMARK-COUNT-1: remark: -factor auto: candidate block.x:2 of 'mm' emitted as 'mm__tf_bx2'
// REMARK: .in.cu:[[#L:]]:{{[0-9]+}}: remark: -factor auto: candidates block.*:8 of 'mm' left out: the replicated __shared__ arrays would declare more than 48 KB (instantiated as 'mm__tf_bx8<32>')
// REMARK: .in.cu:[[#L]]:{{[0-9]+}}: remark: -factor auto: candidates block.*:16 of 'mm' left out: the replicated __shared__ arrays would declare more than 48 KB (instantiated as 'mm__tf_bx16<32>')
// REMARK-NOT: error
// REMARK-NOT: emitted as

// OK-NOT: mm__tf_bx8
// OK-NOT: mm__tf_bx16
// OK: variant 'block.x:4' of 'mm'
// OK: static_assert(4 * sizeof(float[BS][BS]) + 4 * sizeof(float[BS][BS]) + 0 <= 48 * 1024,
// OK-NOT: mm__tf_bx8
// OK-NOT: mm__tf_bx16
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
