// A compile error in the input is forwarded from the parser as
// file:line:col: error: with clang's message; tfuse stops and writes
// nothing.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *o) {
// CHECK: parse-error.cu:[[@LINE+1]]:19: error: use of undeclared identifier 'undeclared_name'
  o[blockIdx.x] = undeclared_name;
}
