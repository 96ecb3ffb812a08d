// An expression statement that ends in a braced temporary (`r = Rec{..};`)
// keeps its `;` when it is emitted per copy (found by the regression corpus:
// the `;` was lost and nvcc rejected the output).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: if (__tf_p1_0) r_0 = Rec{r_0.b, 7};
// CHECK-NEXT: if (__tf_p1_1) r_1 = Rec{r_1.b, 7};

struct Rec { int a, b; };

#pragma tfuse coarsen
__global__ void k(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Rec r;
  r.a = in[i];
  r.b = i;
  if (in[i] > 0)
    r = Rec{r.b, 7};
  out[i] = r.a + r.b;
}

void go(int *o, const int *in, int n) { k<<<n, 64>>>(o, in); }
