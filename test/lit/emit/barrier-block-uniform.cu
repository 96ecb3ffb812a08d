// Block mode: __syncthreads() under control that differs between the
// copies (it depends on blockIdx) but not between the threads of one
// logical block is accepted. Every thread of the merged block evaluates the
// same K conditions, so all of them reach each barrier together: a
// predicated `if` runs its barrier once for all copies, with the copies'
// statements predicated around it; a loop whose trip count depends on the
// block runs once per copy, each copy's loop (barriers included) by every
// thread of the merged block.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      const bool __tf_p1_0 = ((blockIdx.x * 2) < nblocks_full);
// CHECK-NEXT: const bool __tf_p1_1 = __tf_ok_1 && ((blockIdx.x * 2 + 1) < nblocks_full);
// CHECK-NEXT: const bool __tf_q1_0 = !__tf_p1_0;
// CHECK-NEXT: const bool __tf_q1_1 = __tf_ok_1 && !__tf_p1_1;
// CHECK-NEXT: if (__tf_p1_0 || __tf_p1_1) {
// CHECK-NEXT:   if (__tf_p1_0) s_0[t] = s_reg_0 = in[i_0];
// CHECK-NEXT:   if (__tf_p1_1) s_1[t] = s_reg_1 = in[i_1];
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (__tf_p1_0) out[i_0] = s_0[(t + 1) % 128];
// CHECK-NEXT:   if (__tf_p1_1) out[i_1] = s_1[(t + 1) % 128];
// CHECK-NEXT: }
// CHECK-NEXT: if (__tf_q1_0 || __tf_q1_1) {
// CHECK:        __syncthreads();
// CHECK:      for (int r = 0; r < (int)(blockIdx.x * 2) % 3; r++) {
// CHECK-NEXT:   __syncthreads();
// CHECK:      if (__tf_ok_1) for (int r = 0; r < (int)(blockIdx.x * 2 + 1) % 3; r++) {
// CHECK-NEXT:   __syncthreads();

#pragma tfuse coarsen
__global__ void k(const float *in, float *out, int nblocks_full, int n) {
  __shared__ float s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (blockIdx.x < nblocks_full) {
    s[t] = in[i];
    __syncthreads();
    out[i] = s[(t + 1) % 128];
  } else {
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
      out[i] = s[127 - t];
  }
  for (int r = 0; r < (int)blockIdx.x % 3; r++) {
    __syncthreads();
    s[t] += 1.0f;
    __syncthreads();
    if (i < n)
      out[i] += s[(t + 5) % 128];
  }
}

int main() {
  k<<<10, 128>>>(nullptr, nullptr, 8, 1200);
  return 0;
}
