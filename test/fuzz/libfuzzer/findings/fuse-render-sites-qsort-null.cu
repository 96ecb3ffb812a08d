// -check needs each launch as a statement of its own (it becomes an if
// with two launches); a launch inside a larger expression is an error at
// the launch, and no output is written.
// RUN: rm -f %t.cu
// RUN: not %tfuse -check -mode thread %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu

// CHECK: launch-in-expression.cu:[[# @LINE + 9]]:17: error: launch of 'k' is part of a larger expression; make it a statement of its own so tfuse can rewrite it

#pragma tfuse coarsen
__global__ void k(float *out)
{
  out[threadIdx.x] = 1.0f;
}

int host(float *out) {
  return (void)(k<<<1, 64>>>(out)), 0;
}
