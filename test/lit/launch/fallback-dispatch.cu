// Thread mode: a launch whose block K may not divide (a run-time extent, or
// a constant it does not divide beside launches it does) becomes a
// dispatch on the block, evaluated once: the coarsened kernel where
// serves_block says K divides it (and, for warp-synchronous code, leaves
// whole warps), else the original, kept as k__tf_orig, on the launch as
// written; the site's static Fallback record counts those launches for
// TFUSE_REPORT.  A constant block K divides keeps the plain rescaled launch
// and needs no original.  A launch inside an expression becomes a lambda
// called on the spot; a launch through a function pointer dispatches on
// the pointer and then on the block; -check runs the original alone where
// the shape is not served.  -report-json counts each kernel's dispatching
// sites.
// REQUIRES: nvcc
// RUN: sed 's#^ *//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -all-kernels %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread -all-kernels %t.in.cu -o %t.r.cu -report-json %t.json
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// JSON: "kernel": "k", {{.*}}, "dispatch_sites": 4}
// JSON: "kernel": "w", {{.*}}, "dispatch_sites": 2}
// RUN: sed '/^#ifndef PLAIN_ONLY/,/^#endif/d' %t.in.cu > %t.check.in.cu
// RUN: %tfuse -factor 2 -mode thread -all-kernels -check %t.check.in.cu -o %t.check.cu
// RUN: FileCheck --check-prefix=CHECKED %s < %t.check.cu
// RUN: %nvcc-check %t.check.cu

__global__ void k(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = 2.0f * i;
}

__global__ void w(float *o) {
  float v = o[blockIdx.x * blockDim.x + threadIdx.x];
  v += __shfl_down_sync(0xffffffffu, v, 1);
  o[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// CHECK: /* tfuse: the original 'k', which function pointers hold; {{.*}} */
// CHECK-NEXT: __global__ void k__tf_orig(float *o, int n) {
// CHECK: /* tfuse: the original 'w', which a launch runs where the coarsened kernel cannot serve its shape */
// CHECK-NEXT: __global__ void w__tf_orig(float *o) {

// CHECK-LABEL: void run(float *o, int n, int b) {
void run(float *o, int n, int b) {
  // CHECK: { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}:[[#@LINE+5]]"); const dim3 __tf_block = (b);
  // CHECK-NEXT:   if (::tfuse_rt::serves_block(__tf_block, 0, 2u, false, __tf_fb))
  // CHECK-NEXT:     k<<<(n + b - 1) / b, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "k", "{{.*}}")>>>(o, n);
  // CHECK-NEXT:   else
  // CHECK-NEXT:     k__tf_orig<<<(n + b - 1) / b, __tf_block>>>(o, n);
  k<<<(n + b - 1) / b, b>>>(o, n);
  // CHECK: }
  // CHECK: k<<<4, ::tfuse_rt::coarsen_block(128, 0, 2u, "k", "{{.*}}")>>>(o, n);
  k<<<4, 128>>>(o, n);
  // CHECK: { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}:[[#@LINE+2]]"); const dim3 __tf_block = (1);
  // CHECK-NEXT:   if (::tfuse_rt::serves_block(__tf_block, 0, 2u, false, __tf_fb))
  k<<<1, 1>>>(o, n);
  // CHECK: (void)([&] { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); const dim3 __tf_block = (b);
  // CHECK-NEXT:   if (::tfuse_rt::serves_block(__tf_block, 0, 2u, false, __tf_fb))
  // CHECK-NEXT:     return k<<<n, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "k", "{{.*}}"), 0>>>(o, n);
  // CHECK-NEXT:   else
  // CHECK-NEXT:     return k__tf_orig<<<n, __tf_block, 0>>>(o, n);
  // CHECK-NEXT: }());
#ifndef PLAIN_ONLY
  (void)(k<<<n, b, 0>>>(o, n));
#endif
}

// Warp-synchronous code needs whole warps per copy: 64 threads at K = 2
// serve, 32 do not (a constant that never serves), a run-time block asks.
// CHECK-LABEL: void warps(float *o, int b) {
void warps(float *o, int b) {
  // CHECK: w<<<1, ::tfuse_rt::coarsen_block_warps(64, 0, 2u, "w", "{{.*}}")>>>(o);
  w<<<1, 64>>>(o);
  // CHECK: { static ::tfuse_rt::Fallback __tf_fb("w", "{{.*}}"); const dim3 __tf_block = (32);
  // CHECK-NEXT:   if (::tfuse_rt::serves_block(__tf_block, 0, 2u, true, __tf_fb))
  w<<<1, 32>>>(o);
  // CHECK: if (::tfuse_rt::serves_block(__tf_block, 0, 2u, true, __tf_fb))
  // CHECK: w__tf_orig<<<1, __tf_block>>>(o);
  w<<<1, b>>>(o);
}

// Through a pointer: the original the pointer holds runs where the shape is
// not served.  (-check refuses kernels held by pointers and launches
// inside expressions: its input leaves those out.)
// CHECK-LABEL: void through(void (*f)(float *, int), float *o, int n, int b) {
// CHECK-NEXT: { auto __tf_fp = (f);
// CHECK-NEXT:   if (__tf_fp == &k__tf_orig) { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); const dim3 __tf_block = (b);
// CHECK-NEXT:   if (::tfuse_rt::serves_block(__tf_block, 0, 2u, false, __tf_fb))
// CHECK-NEXT:     k<<<n, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "k", "{{.*}}")>>>(o, n);
// CHECK-NEXT:   else
// CHECK-NEXT:     __tf_fp<<<n, __tf_block>>>(o, n);
// CHECK-NEXT:   }
// CHECK-NEXT:   else __tf_fp<<<n, b>>>(o, n); }
#ifndef PLAIN_ONLY
void through(void (*f)(float *, int), float *o, int n, int b) {
  f<<<n, b>>>(o, n);
}
void take(void (**f)(float *, int)) { *f = k; }
#endif

// CHECKED-LABEL: void run(float *o, int n, int b) {
// CHECKED: { static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}"); const dim3 __tf_grid = ((n + b - 1) / b); const dim3 __tf_block = (b);
// CHECKED-NEXT:   if (!(::tfuse_rt::serves_block(__tf_block, 0, 2u, false, __tf_fb))) {
// CHECKED-NEXT:     if (::tfuse_rt::check_on()) tfuse_check_ran_original("k", "{{.*}}");
// CHECKED-NEXT:     k__tf_orig<<<__tf_grid, __tf_block>>>(o, n);
// CHECKED-NEXT:   } else if (::tfuse_rt::check_on(0)) {
// CHECKED-NEXT:     ::tfuse_rt::Check __tf_check("k", "{{.*}}", 0);
// CHECKED: k<<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "k", "{{.*}}")>>>(o, n);
// CHECKED-NEXT:     __tf_check.coarsened_done();
// CHECKED-NEXT:   } else {
// CHECKED-NEXT:     k<<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "k", "{{.*}}")>>>(o, n);
// CHECKED-NEXT:   }
// CHECKED-NEXT: }
// CHECKED: { const dim3 __tf_grid = (4); const dim3 __tf_block = (128);
// CHECKED-NEXT:   if (::tfuse_rt::check_on(0)) {
