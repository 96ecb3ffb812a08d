// A kernel chosen through a function pointer (CUDA samples' transpose:
// `kernel = &copy; ... kernel<<<g, b>>>(...)`).  The pointer cannot carry
// the rescaled launch, so uses of the name that store or compare a
// function pointer name the original kernel, kept as `copy__tf_orig`, and
// each launch through a pointer of the kernel's type dispatches on the
// pointer's value: the coarsened kernel with its launch rescaled where the
// pointer holds the original, the pointer's own target otherwise.  A
// launch through a pointer that tfuse does not rewrite (here one inside an
// expression) runs the original, as written, and says so.  Direct launches
// are rewritten as usual.  Pointers of another type are not dispatched.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu 2>&1 | FileCheck --check-prefix=WARN %s
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 4 -mode thread %t.in.cu -o %t.thread.cu 2>/dev/null
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// WARN: .in.cu:[[#@LINE+47]]:{{[0-9]+}}: warning: this launch through a function pointer that may hold 'copy' is not a statement of its own; it runs the original kernel

// CHECK-LABEL: __global__ void copy(unsigned int __tf_grid_x, float *o, const float *in, int n) {
// CHECK:      /* tfuse: the original 'copy', which function pointers hold; a launch through one runs 'copy' coarsened */
// CHECK-NEXT: __global__ void copy__tf_orig(float *o, const float *in, int n) {
// CHECK-LABEL: void run(float *o, const float *in, int n, int which) {
// CHECK-NEXT: void (*kernel)(float *, const float *, int);
// CHECK-NEXT: kernel = which == 0 ? &copy__tf_orig : &scale2__tf_orig;
// CHECK-NEXT: void (*other)(float *, int) = &fill;
// CHECK-NEXT: if (kernel == &copy__tf_orig || kernel == &scale2__tf_orig)
// CHECK-NEXT: n = n + 0;
// CHECK-NEXT: { auto __tf_fp = (kernel);
// CHECK-NEXT:   if (__tf_fp == &copy__tf_orig) { const dim3 __tf_grid = ((n + 255) / 256); copy<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256>>>(::tfuse_rt::grid_extent(__tf_grid, 0), o, in, n); }
// CHECK-NEXT:   else if (__tf_fp == &scale2__tf_orig) { const dim3 __tf_grid = ((n + 255) / 256); scale2<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256>>>(::tfuse_rt::grid_extent(__tf_grid, 0), o, in, n); }
// CHECK-NEXT:   else __tf_fp<<<(n + 255) / 256, 256>>>(o, in, n); }
// CHECK-NEXT: other<<<1, 32>>>(o, n);
// CHECK-NEXT: cudaError_t e = (kernel<<<1, 32>>>(o, in, n), cudaGetLastError());
// CHECK-NEXT: { const dim3 __tf_grid = (4); copy<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0), o, in, n); }

// THREAD:      if (__tf_fp == &copy__tf_orig) { copy<<<(n + 255) / 256, ::tfuse_rt::coarsen_block(256, 0, 4u, "copy", "{{.*}}.in.cu:[[#@LINE+26]]")>>>(o, in, n); }
// THREAD-NEXT: else if (__tf_fp == &scale2__tf_orig) { scale2<<<(n + 255) / 256, ::tfuse_rt::coarsen_block(256, 0, 4u, "scale2", "{{.*}}.in.cu:[[#@LINE+25]]")>>>(o, in, n); }
// THREAD-NEXT: else __tf_fp<<<(n + 255) / 256, 256>>>(o, in, n); }

#pragma tfuse coarsen
__global__ void copy(float *o, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    o[t] = in[t];
}

#pragma tfuse coarsen
__global__ void scale2(float *o, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    o[t] = 2 * in[t];
}

__global__ void fill(float *o, int n) { o[threadIdx.x] = n; }

void run(float *o, const float *in, int n, int which) {
  void (*kernel)(float *, const float *, int);
  kernel = which == 0 ? &copy : &scale2;
  void (*other)(float *, int) = &fill;
  if (kernel == &copy || kernel == &scale2)
    n = n + 0;
  kernel<<<(n + 255) / 256, 256>>>(o, in, n);
  other<<<1, 32>>>(o, n);
  cudaError_t e = (kernel<<<1, 32>>>(o, in, n), cudaGetLastError());
  copy<<<4, 32>>>(o, in, n);
  (void)e;
}
