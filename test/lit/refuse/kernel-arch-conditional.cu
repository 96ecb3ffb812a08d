// A kernel whose body holds lines the host-side parse skips and the device
// compilation may not (`#if __CUDA_ARCH__ >= 700`, `#ifdef __CUDA_ARCH__`):
// tfuse cannot see or rewrite them, and copying them would leave them reading
// the physical block.  Refused at the directive; `#if 0` (skipped by both) is
// not.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 -mode block %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor 2 -mode block -skip-unsafe %s -o %t.cu 2>/dev/null
// RUN: FileCheck %s --check-prefix=SKIP < %t.cu

#pragma tfuse coarsen
__global__ void arch_only(int *out) {
// CHECK: kernel-arch-conditional.cu:[[@LINE+1]]:1: error: part of the kernel's body is under a preprocessor condition the host-side parse skips (__CUDA_ARCH__, say): tfuse cannot see or rewrite that code
#if __CUDA_ARCH__ >= 700
  out[blockIdx.x * 64 + threadIdx.x] = 1;
#endif
}

#pragma tfuse coarsen
__global__ void arch_else(int *out) {
// CHECK: kernel-arch-conditional.cu:[[@LINE+1]]:1: error: part of the kernel's body is under a preprocessor condition the host-side parse skips
#ifdef __CUDA_ARCH__
  out[blockIdx.x * 64 + threadIdx.x] = 1;
#else
  out[0] = 0;
#endif
}

// SKIP-LABEL: __global__ void if_zero(
// SKIP: out[(blockIdx.x * 2) * 64 + threadIdx.x] = 1;
// SKIP: if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * 64 + threadIdx.x] = 1;
#pragma tfuse coarsen
__global__ void if_zero(int *out) {
  out[blockIdx.x * 64 + threadIdx.x] = 1;
#if 0
  out[blockIdx.x] = 2;
#endif
}

void run(int *o, int n) {
  arch_only<<<n, 64>>>(o);
  arch_else<<<n, 64>>>(o);
  if_zero<<<n, 64>>>(o);
}
