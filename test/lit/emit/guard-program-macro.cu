// TFUSE_GUARD expands in the program's text, after the program's macros:
// its helper has tfuse's reserved prefix (::tfuse_rt::__tf_zero), so a
// program macro named `zero` (HeCBench md's `#define zero
// make_float4(0.f,0.f,0.f,0.f)`) does not replace it (nvcc: namespace
// "tfuse_rt" has no member "make_float4").
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: float4 ipos_1 = TFUSE_GUARD(__tf_ok_1 && __tf_live_1, position[idx_1]);
#define zero make_float4(0.f, 0.f, 0.f, 0.f)

#pragma tfuse coarsen
__global__ void k(const float4 *position, float4 *force, unsigned n) {
  const unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  float4 ipos = position[idx];
  float4 f = zero;
  f.x = ipos.x * 2.f;
  force[idx] = f;
}

void launch(const float4 *p, float4 *f, unsigned n) { k<<<(n + 127) / 128, 128>>>(p, f, n); }
