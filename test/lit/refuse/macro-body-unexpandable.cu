// A macro body that pastes or stringifies tokens (`##`, `#`) is not
// expanded by tfuse; a builtin it names stays out of reach of the rewrite,
// so the kernel is refused at the use, and nothing is written.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#define IDX_OF(d) (blockIdx.d * blockDim.d + threadIdx.d + 0##1)

#pragma tfuse coarsen
__global__ void k(float *out) {
// CHECK: macro-body-unexpandable.cu:[[@LINE+1]]:{{[0-9]+}}: error: blockIdx inside a macro expansion: tfuse rewrites source text and cannot reach it; expand the macro by hand
  out[IDX_OF(x)] = 1.0f;
}

int main() {
  k<<<4, 32>>>(nullptr);
  return 0;
}
