// A logical index inside a macro expansion is refused: tfuse rewrites the
// source text and cannot substitute blockIdx.x inside IDX's body.
// Expected to fail: tfuse accepts the kernel and emits `out[IDX] = 1.0f;`
// twice, unchanged, so copy 1 writes copy 0's element and its own logical
// block's element is never written (a silent miscompile).  It misses the
// macro because clang_getFileLocation maps a token of a macro body to the
// expansion site, so the node is not seen as inside a macro.  The same
// happens with the macro in a header, and `int g = IDX;` gives every copy
// the index of copy 0.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#define IDX (blockIdx.x * blockDim.x + threadIdx.x)

#pragma tfuse coarsen
__global__ void k(float *out) {
// CHECK: macro-varying.cu:[[@LINE+1]]:{{[0-9]+}}: error: blockIdx inside a macro expansion: tfuse rewrites source text and cannot reach it; expand the macro by hand
  out[IDX] = 1.0f;
}
