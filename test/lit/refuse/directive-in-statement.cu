// A preprocessor directive inside a statement (here between an expression
// and its `;`) cannot be carried into the copies tfuse writes out from the
// statement's text: refused, located, naming the fix.  Directives around
// whole statements are kept (tune/auto-launch-directive.cu).
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
#define USE_SCALE 1

#pragma tfuse coarsen
__global__ void k(float *out, float s) {
// CHECK: directive-in-statement.cu:[[@LINE+1]]:3: error: a preprocessor directive (#if ...) inside this statement: tfuse writes the statement out from its text and cannot carry the directive; put the #if around whole statements
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f
#if USE_SCALE
                                               * s
#endif
      ;
}

void run(float *out, int n) { k<<<n, 128>>>(out, 2.0f); }
