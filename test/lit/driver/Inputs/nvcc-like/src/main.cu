// Input for driver/include-paths.test: parses only with ../inc on the
// include path (-I, in any of nvcc's spellings), ../sys as a system folder,
// pre.h pre-included, SCALE defined and NOSUCH undefined; "local.h" is found
// next to this file, as nvcc finds it.
#include "local.h"
#include <sub/defs.h>
#include <sysdefs.h>

#ifndef PRE_INCLUDED
#error "-include pre.h did not reach the parser"
#endif
#ifdef NOSUCH
#error "-U NOSUCH did not reach the parser"
#endif
#if __cplusplus != CPLUSPLUS_EXPECTED
#error "the -std given did not reach the parser"
#endif

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = SCALE * LOCAL_FACTOR * SYS_FACTOR * in[i];
}

void launch(float *out, const float *in, int n) {
  scale<<<(n + 255) / 256, 256>>>(out, in, n);
}
