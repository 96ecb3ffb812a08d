// -factor auto under -keep-going: a kernel whose name is used other than in
// a launch is left unchanged, the reason in its warning and in the summary
// (its variants' own trials, nested in its trial, do not end that one);
// the other kernel of the file is still tuned.
// REQUIRES: nvcc
// RUN: %tfuse -factor auto -all-kernels -keep-going %s -o %t.cu 2> %t.err
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.cu
// RUN: %nvcc-check -I %src-root/runtime/include %t.cu
#include <cstdio>

__global__ void k(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
__global__ void j(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f; }

void f(float *x) {
  k<<<4, 128>>>(x);
  j<<<4, 128>>>(x);
  printf("%p\n", (void *)k);
}

// ERR: keep-going-auto.cu:18:26: warning: kernel 'k' left unchanged: 'k' is passed to printf, which tfuse does not model
// ERR-NOT: error:
// ERR: tfuse: 2 kernels: 1 coarsened, 1 left unchanged:
// ERR-NEXT: tfuse:      1  '…' is passed to printf, which tfuse does not model
// OUT: __global__ void j__tf_bx2(
// OUT: k<<<4, 128>>>(x);
// OUT: j__tf_bx2<<<
