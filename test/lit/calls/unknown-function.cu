// A call tfuse cannot see is refused, naming the function: one declared
// without a body (defined in another file), a call through a function
// pointer, and the same inside a helper (reported at the kernel's call).
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

__device__ float ext(float x);
__device__ float ext2(float x);
__device__ float helper(float x) { return ext2(x) + 1.0f; }
typedef float (*fn_t)(float);

#pragma tfuse coarsen
__global__ void k(float *out, fn_t f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK: unknown-function.cu:[[@LINE+1]]:12: error: call to 'ext', whose body tfuse cannot see
  out[i] = ext(out[i]);
// CHECK: unknown-function.cu:[[@LINE+1]]:13: error: 'helper' calls 'ext2', whose body tfuse cannot see
  out[i] += helper(out[i]);
// CHECK: unknown-function.cu:[[@LINE+1]]:13: error: call to 'f', a function pointer or function object: tfuse cannot see what it calls
  out[i] += f(out[i]);
}
