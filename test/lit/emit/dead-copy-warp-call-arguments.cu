// Block mode: a warp call taken out of its copy's guard (every lane runs
// it: fuse.c emit_warp_hoists) gets, in a dead copy (its logical block past
// the grid), copy 0's arguments where its own differ, so a helper that
// loads through a pointer argument (`wsum(in + blockIdx.x * 32)`) loads
// only what live copy 0 loads; loads spelled as calls (`__ldg`, `__ldcs`,
// `__ldcg`, `__ldlu`, `tex1Dfetch`) at an address that depends on the copy
// are guarded like subscripts.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 4 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      float s_0 = wsum(in + (blockIdx.x * 4) * 32);
// CHECK:      const auto __tf_w1 = wsum(((__tf_ok_1) ? (in + (blockIdx.x * 4 + 1) * 32) : (in + (blockIdx.x * 4) * 32)));
// CHECK-NEXT: float s_1 = TFUSE_GUARD(__tf_ok_1, __tf_w1);
// CHECK:      const auto __tf_w3 = wsum(((__tf_ok_3) ? (in + (blockIdx.x * 4 + 3) * 32) : (in + (blockIdx.x * 4) * 32)));
// CHECK:      __shfl_sync(0xffffffffu, ((__tf_ok_1) ? (__ldg(rows[(blockIdx.x * 4 + 1)] + threadIdx.x % 32)) : (__ldg(rows[(blockIdx.x * 4)] + threadIdx.x % 32))), 0);
// CHECK:      __shfl_sync(0xffffffffu, v, 0)
// CHECK-LABEL: __global__ void loads(
// CHECK:      float a_1 = TFUSE_GUARD(__tf_ok_1, __ldg(in + i_1));
// CHECK:      float b_1 = TFUSE_GUARD(__tf_ok_1, __ldcs(in + i_1));
// CHECK:      float c_1 = TFUSE_GUARD(__tf_ok_1, __ldlu(in + i_1));
// CHECK:      float d_1 = TFUSE_GUARD(__tf_ok_1, tex1Dfetch<float>(tex, i_1));
// CHECK:      float e_1 = TFUSE_GUARD(__tf_ok_1, __ldcg(&in[i_1]));
__device__ float wsum(const float *p) {
  float v = p[threadIdx.x % 32];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

#pragma tfuse coarsen
__global__ void k(const float *in, const float *const *rows, float v, float *out) {
  float s = wsum(in + blockIdx.x * 32);
  float t = __shfl_sync(0xffffffffu, __ldg(rows[blockIdx.x] + threadIdx.x % 32), 0);
  float u = __shfl_sync(0xffffffffu, v, 0);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s + t + u;
}

#pragma tfuse coarsen
__global__ void loads(const float *in, cudaTextureObject_t tex, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = __ldg(in + i);
  float b = __ldcs(in + i);
  float c = __ldlu(in + i);
  float d = tex1Dfetch<float>(tex, i);
  float e = __ldcg(&in[i]);
  out[i] = a + b + c + d + e;
}

void run(const float *in, const float *const *rows, cudaTextureObject_t t, float *out, int n) {
  k<<<n, 32>>>(in, rows, 1.0f, out);
  loads<<<n, 64>>>(in, t, out);
}
