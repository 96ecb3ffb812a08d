// -factor auto renames every variant, so each launch must become a
// dispatch: a launch in a macro's argument, one inside a larger expression, and any
// other use of the kernel's name are located errors, and nothing is written.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor auto -kernel k %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

__global__ void k(float *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
#define L(x) x
#define LL k<<<4, 64>>>(o)
int run(float *o) {
// CHECK-DAG: refused-launches.cu:[[@LINE+1]]:6: error: -factor auto cannot route this launch of 'k' (written in a macro, or naming the kernel with a qualifier); write it as a statement 'k<<<...>>>(...);'
  L((k<<<4, 64>>>(o)));
// CHECK-DAG: refused-launches.cu:[[@LINE+1]]:12: error: launch of 'k' is part of a larger expression; make it a statement of its own so tfuse can rewrite it
  int r = (k<<<4, 64>>>(o), 0);
// (A launch in a macro's body is expanded at its use, a statement there: routed.)
  LL;
  return r;
}
// CHECK-DAG: refused-launches.cu:[[@LINE+1]]:45: error: 'k' is used here other than in a <<<...>>> launch; tfuse cannot rescale such a launch, so it refuses to coarsen the kernel
void other(float *o) { void (*p)(float *) = k; (void)p; }
