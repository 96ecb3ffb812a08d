// Thread mode: a kernel whose every launch in the file has a constant block
// that the coarsened kernel could never serve (K does not divide 1, or
// 3 x 2 along x; a warp-synchronous kernel whose 32 threads over K are not
// whole warps) would only ever run its kept original: it is refused with
// the first such launch and the reason, and left unchanged under
// -keep-going.  One launch that could be served (a run-time block) is
// enough to coarsen it; the others then dispatch to the original
// (launch/fallback-dispatch.cu).
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -mode thread -factor 2 -kernel one %s -o %t.out 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: test ! -e %t.out
// RUN: not %tfuse -mode thread -factor 2 -kernel warp %s -o %t.out 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: %tfuse -mode thread -factor 2 -all-kernels -keep-going %s -o %t.kept.cu 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: FileCheck %s --check-prefix=OUT < %t.kept.cu
// RUN: %nvcc-check %t.kept.cu

// ONE: launch-never-served.cu:[[#@LINE+14]]:3: error: every launch of 'one' in this file has a block the kernel coarsened by 2 could never serve (here blockDim.x = 1, which the factor 2 does not divide), so it would only ever run the original
// WARP: launch-never-served.cu:[[#@LINE+16]]:3: error: every launch of 'warp' in this file has a block the kernel coarsened by 2 could never serve (here blockDim.x = 32, whose 1/2 is not whole warps, which the kernel's warp-synchronous code needs), so it would only ever run the original
// KEPT: warning: kernel 'one' left unchanged: every launch
// KEPT: warning: kernel 'warp' left unchanged: every launch
// KEPT: 3 kernels: 1 coarsened, 2 left unchanged
// OUT: __global__ void one(float *o) { o[threadIdx.x] = 1.0f; }
// OUT: if (::tfuse_rt::serves_block(__tf_block, 0, 2u, false, __tf_fb))
// OUT-NEXT: some<<<1, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "some", "{{.*}}")>>>(o);

__global__ void one(float *o) { o[threadIdx.x] = 1.0f; }
__global__ void warp(float *o) { o[threadIdx.x] += __shfl_down_sync(0xffffffffu, o[threadIdx.x], 1); }
__global__ void some(float *o) { o[threadIdx.x] = 2.0f; }

void run(float *o, int b) {
  one<<<1, 1>>>(o);
  dim3 odd(3, 2);
  one<<<1, odd>>>(o);
  warp<<<1, 32>>>(o);
  some<<<1, 1>>>(o);
  some<<<1, b>>>(o);
}
