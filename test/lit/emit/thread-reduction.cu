// Thread mode on a shared-memory tree reduction: the stride loop is uniform
// (its bound is blockDim.x, now the logical block extent blockDim.x * K), so
// it is emitted once with its __syncthreads(); the varying `if (t < st)`
// inside is predicated per copy, and the final store, the same for every
// copy, runs once if any copy is thread 0.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void reduce(
// CHECK:      __shared__ float s[256];
// CHECK-NEXT: int t_0 = (threadIdx.x);
// CHECK-NEXT: int t_1 = (threadIdx.x + 1 * blockDim.x);
// CHECK-NEXT: s[t_0] = in[blockIdx.x * (blockDim.x * 2) + t_0];
// CHECK-NEXT: s[t_1] = in[blockIdx.x * (blockDim.x * 2) + t_1];
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: for (int st = (blockDim.x * 2) / 2; st > 0; st >>= 1) {
// CHECK-NEXT:   const bool __tf_p1_0 = (t_0 < st);
// CHECK-NEXT:   const bool __tf_p1_1 = (t_1 < st);
// CHECK-NEXT:   if (__tf_p1_0 || __tf_p1_1) {
// CHECK-NEXT:     if (__tf_p1_0) s[t_0] += s[t_0 + st];
// CHECK-NEXT:     if (__tf_p1_1) s[t_1] += s[t_1 + st];
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT: }
// CHECK-NEXT: const bool __tf_p2_0 = (t_0 == 0);
// CHECK-NEXT: const bool __tf_p2_1 = (t_1 == 0);
// CHECK-NEXT: if (__tf_p2_0 || __tf_p2_1) {
// CHECK-NEXT:   out[blockIdx.x] = s[0];
// CHECK-NEXT: }

#pragma tfuse coarsen mode(thread)
__global__ void reduce(float *out, const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st)
      s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
