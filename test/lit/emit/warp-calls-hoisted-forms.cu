// Block mode takes a copy's warp calls out of its guard (every lane runs
// them, as in the original; nvcc 13's optimizing ptxas miscomputes some
// guarded warp reductions at K = 7 and 8), also where a call writes a
// local through a pointer (`&pred` of __match_all_sync: a dead copy writes
// only its own local) and where an argument calls a helper that computes a
// value (a dead copy takes copy 0's argument, so it loads only what live
// copy 0 loads).  Two warp
// calls of one expression each get a temporary holding its own call alone.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 8 -mode block %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

__device__ unsigned mix(unsigned a, unsigned b) { return a * 2654435761u ^ b; }

// CHECK: const auto [[M:__tf_w[0-9]+]] = __match_all_sync(0xffffffffu, v_7 & 1u, &pred_7); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: unsigned int m_7 = TFUSE_GUARD(__tf_ok_7, [[M]]);
// CHECK: const auto [[R:__tf_w[0-9]+]] = __reduce_add_sync(0xffffffffu, ((__tf_ok_7) ? (mix(v_7, blockDim.x)) : (mix(v_0, blockDim.x)))); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: if (__tf_ok_7) acc_7 ^= [[R]];
#pragma tfuse coarsen
__global__ void k(unsigned *out, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  int pred;
  unsigned int m = __match_all_sync(0xffffffffu, v & 1u, &pred);
  unsigned acc = m + (unsigned)pred;
  acc ^= __reduce_add_sync(0xffffffffu, mix(v, blockDim.x));
  out[i] = acc;
}

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ float red3(float v, bool t, float init) { return warp_sum(v) + (t ? init : 0.f); }

// CHECK-LABEL: void two(
// CHECK: const auto [[A:__tf_w[0-9]+]] = warp_sum(((__tf_ok_7) ? (in[i_7]) : (in[i_0]))); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: const auto [[B:__tf_w[0-9]+]] = red3(((__tf_ok_7) ? (in[i_7]) : (in[i_0])), false, -1.0f); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: if (__tf_ok_7) out[i_7] = [[A]] + [[B]];
#pragma tfuse coarsen
__global__ void two(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warp_sum(in[i]) + red3(in[i], false, -1.0f);
}

void run(unsigned *out, const unsigned *in, int n) { k<<<n, 128>>>(out, in); }
void run2(float *out, const float *in, int n) { two<<<n, 128>>>(out, in); }
