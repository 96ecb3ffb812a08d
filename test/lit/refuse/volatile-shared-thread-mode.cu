// A volatile __shared__ array in thread mode is the mark of a
// warp-synchronous reduction: refused where the mapping splits a logical
// warp's lanes across copies (consecutive), kept with the stride mapping
// along x, where copy r of a physical warp is one whole logical warp (the
// launch checks that blockDim.x / K is a multiple of 32).
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -mapping consecutive %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s --check-prefix=STRIDE < %t.cu
// RUN: %nvcc-check %t.cu

// STRIDE:      const bool __tf_p1_1 = ((threadIdx.x + 1 * blockDim.x) < 32);
// STRIDE:      k<<<1, ::tfuse_rt::coarsen_block_warps(64, 0, 2u, "k", "{{.*}}")>>>(o, i);
#pragma tfuse coarsen mode(thread)
__global__ void k(float *out, const float *in) {
// CHECK: volatile-shared-thread-mode.cu:[[@LINE+1]]:29: error: volatile __shared__ 's' suggests warp-synchronous code, which thread mode would split; thread mode keeps warps whole only with -mapping stride along x alone
  volatile __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 32)
    s[threadIdx.x] += s[threadIdx.x + 32];
  out[threadIdx.x] = s[threadIdx.x];
}

void run(float *o, const float *i) { k<<<1, 64>>>(o, i); }
