// Factor 1 leaves every kernel unchanged: the output is the input, byte for
// byte, whether the factor comes from the pragma or the command line, and
// its launches are not rewritten either.
// RUN: %tfuse -factor 1 %s -o %t.cli.cu
// RUN: diff %s %t.cli.cu
// RUN: sed 's#coarsen factor(2)#coarsen factor(1)#' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.pragma.cu
// RUN: diff %t.in.cu %t.pragma.cu

#pragma tfuse coarsen factor(2)
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.0f;
}

void host(float *p, int n) { k<<<(n + 127) / 128, 128>>>(p, n); }
