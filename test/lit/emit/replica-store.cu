// Block mode: a dead copy's store into its own replica of a shared array is
// invisible (only that copy reads the replica), so outside predicated code
// only the stored value is guarded: `t_1[i] = __tf_ok_1 ? (v) : 0;`, with no
// branch between the copies' loads.  The guard stays a branch where the
// index differs between copies, for a compound assignment (it reads the
// replica), for a non-arithmetic value, and under a varying `if`, where a
// false condition must leave the element as it was.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      t_0[threadIdx.x] = (c < n) ? in[(blockIdx.x * 2) * 64 + threadIdx.x] : 0.0f;
// CHECK-NEXT: t_1[threadIdx.x] = __tf_ok_1 ? ((c < n) ? in[(blockIdx.x * 2 + 1) * 64 + threadIdx.x] : 0.0f) : 0;
// CHECK-NEXT: u_0[threadIdx.x] += in[(blockIdx.x * 2)];
// CHECK-NEXT: if (__tf_ok_1) u_1[threadIdx.x] += in[(blockIdx.x * 2 + 1)];
// CHECK-NEXT: const float [[IN:__tf_u[0-9]+]] = in[threadIdx.x]; /* tfuse: the same for every copy, loaded once */
// CHECK-NEXT: w_0[(blockIdx.x * 2) % 64] = [[IN]];
// CHECK-NEXT: if (__tf_ok_1) w_1[(blockIdx.x * 2 + 1) % 64] = [[IN]];
// CHECK-NEXT: p_0[threadIdx.x] = q[(blockIdx.x * 2)];
// CHECK-NEXT: if (__tf_ok_1) p_1[threadIdx.x] = q[(blockIdx.x * 2 + 1)];
// CHECK:      if (__tf_p1_0) t_0[threadIdx.x] = 1.0f;
// CHECK-NEXT: if (__tf_p1_1) t_1[threadIdx.x] = 1.0f;

struct P { float a, b; };

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, const P *q, int n) {
  __shared__ float t[64];
  __shared__ float u[64];
  __shared__ float w[64];
  __shared__ P p[64];
  int c = threadIdx.x;
  t[threadIdx.x] = (c < n) ? in[blockIdx.x * 64 + threadIdx.x] : 0.0f;
  u[threadIdx.x] += in[blockIdx.x];
  w[blockIdx.x % 64] = in[threadIdx.x];
  p[threadIdx.x] = q[blockIdx.x];
  if (in[blockIdx.x] > 0.0f)
    t[threadIdx.x] = 1.0f;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = t[63 - threadIdx.x] + u[0] + w[0] + p[0].a;
}
