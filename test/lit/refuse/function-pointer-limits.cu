// Uses of a coarsened kernel's name that tfuse can follow are launches and
// function pointers' values (launch/function-pointer.cu), and the kernel
// arguments of the runtime's functions (launch/runtime-api.cu); a value
// stored through a cast holds the kept original (launch/graph-kernel-node.cu).
// An argument of any other function (named in the error) would reach the
// coarsened kernel without its rescaled launch: refused at each use.  -check does not route launches through pointers: it refuses the
// pointer's value too.  Nothing is written.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: not %tfuse -check %s -o %t.out 2>&1 | FileCheck --check-prefix=CHECKMODE %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

void takes_kernel(void (*)(float *, int));

void host(float *p, int n) {
  void (*f)(float *, int) = &k;
// CHECKMODE: function-pointer-limits.cu:[[@LINE-1]]:{{[0-9]+}}: error: 'k' is used here other than in a <<<...>>> launch; tfuse cannot rescale such a launch, so it refuses to coarsen the kernel
// CHECK-NOT: function-pointer-limits.cu:[[@LINE+1]]:{{[0-9]+}}: error
  const void *raw = (const void *)&k;
// CHECK: function-pointer-limits.cu:[[@LINE+1]]:{{[0-9]+}}: error: 'k' is passed to takes_kernel, which tfuse does not model: it may launch or describe the kernel, which runs coarsened; tfuse refuses to coarsen the kernel
  takes_kernel(k);
  f<<<n / 256, 256>>>(p, n);
  (void)raw;
}
