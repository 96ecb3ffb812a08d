// Text outside the rewritten statements is copied as it is: comments before
// and inside the kernel, odd spacing in host code, blank lines, the
// preprocessor lines.  A comment inside a rewritten statement's line stays
// next to it.  (Lines starting with // are stripped before the run, so the
// comments checked here are indented or written /* */.)
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck --strict-whitespace %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* A file comment that must survive. */
// CHECK-NEXT: #define SCALE 2.0f
// CHECK-EMPTY:
// CHECK-NEXT: /* before the kernel */
// CHECK-NEXT: /* tfuse: coarsened by 2, block mode along x */
// CHECK-NEXT: __global__ void k(unsigned int __tf_grid_x, float *out, int n) {
// CHECK:        // a leading comment
// CHECK-NEXT:   int i_0 = (blockIdx.x * 2) * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int i_1 = (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x; /* trailing */
// CHECK-NEXT:   /* between statements */
// CHECK-NEXT:   float   s  =  SCALE * n;
// CHECK:      int   main( ) {   /* odd spacing kept */
// CHECK-NEXT:   float *p = 0;
// CHECK-EMPTY:
// CHECK-NEXT:   return 0;

/* A file comment that must survive. */
#define SCALE 2.0f

/* before the kernel */
#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  // a leading comment
  int i = blockIdx.x * blockDim.x + threadIdx.x; /* trailing */
  /* between statements */
  float   s  =  SCALE * n;
  out[i] = s;
}

int   main( ) {   /* odd spacing kept */
  float *p = 0;

  return 0;
}
