// Block mode: a __shared__ array written with a varying value or index is
// replicated, one per logical block (s_0, s_1), and every access to it is
// per copy; a shared array written only uniformly stays single.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after=uniform %s | FileCheck %s --check-prefix=DUMP
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// DUMP-LABEL: FUNC 'k'
// DUMP: VAR 's' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'idx' <{{[0-9:]+}}> varying [varying]
// DUMP: VAR 'c' <{{[0-9:]+}}> [uniform]

// CHECK-LABEL: __global__ void k(
// CHECK:      __shared__ float s_0[64];
// CHECK-NEXT: __shared__ float s_1[64];
// CHECK-NEXT: __shared__ float idx_0[64];
// CHECK-NEXT: __shared__ float idx_1[64];
// CHECK-NEXT: __shared__ float c[64];
// CHECK:      s_0[threadIdx.x] = in[(blockIdx.x * 2) * blockDim.x + threadIdx.x];
// CHECK-NEXT: s_1[threadIdx.x] = __tf_ok_1 ? (in[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x]) : 0;
// CHECK-NEXT: idx_0[(blockIdx.x * 2) % 64] = 1.0f;
// CHECK-NEXT: if (__tf_ok_1) idx_1[(blockIdx.x * 2 + 1) % 64] = 1.0f;
// CHECK-NEXT: c[threadIdx.x] = 2.0f;
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: const float [[C:__tf_u[0-9]+]] = c[0]; /* tfuse: the same for every copy, loaded once */
// CHECK-NEXT: out[(blockIdx.x * 2) * blockDim.x + threadIdx.x] = s_0[63 - threadIdx.x] + idx_0[0] + [[C]];
// CHECK-NEXT: if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x] = s_1[63 - threadIdx.x] + idx_1[0] + [[C]];
// CHECK-NOT:  c_0

#pragma tfuse coarsen
__global__ void k(float *out, const float *in) {
  __shared__ float s[64];
  __shared__ float idx[64];
  __shared__ float c[64];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  idx[blockIdx.x % 64] = 1.0f;
  c[threadIdx.x] = 2.0f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[63 - threadIdx.x] + idx[0] + c[0];
}
