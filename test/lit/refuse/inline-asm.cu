// Inline assembly in a coarsened kernel is refused: tfuse cannot see what
// it reads or writes.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(int *out) {
  int v;
// CHECK: inline-asm.cu:[[@LINE+1]]:3: error: inline assembly is not supported in a coarsened kernel: tfuse cannot see what it reads
  asm("mov.u32 %0, 1;" : "=r"(v));
  out[blockIdx.x] = v;
}
