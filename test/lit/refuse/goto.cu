// goto and labels in a coarsened kernel are refused, at the goto and at
// the label.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(int *out) {
  int i = blockIdx.x;
// CHECK: goto.cu:[[@LINE+1]]:14: error: goto and labels are not supported in a coarsened kernel
  if (i > 3) goto done;
  out[i] = 1;
// CHECK: goto.cu:[[@LINE+1]]:1: error: goto and labels are not supported in a coarsened kernel
done:
  out[0] = 2;
}
