// A pointer local initialized with a row of an array (`f.a[j]`, a member
// array of a local struct) in a block-mode copy past the grid's end is
// guarded like any initializer: TFUSE_GUARD of an array-typed expression
// yields the pointer the row decays to (prelude.h: plain<T[N]>), so nvcc
// accepts it (the memory profile's seeds 14 and 17 were rejected with "no
// instance of function template tfuse_rt::zero").
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      unsigned int *q_0 = f_0.a[j];
// CHECK-NEXT: unsigned int *q_1 = TFUSE_GUARD(__tf_ok_1, f_1.a[j]);
// CHECK:      const unsigned int *r_1 = TFUSE_GUARD(__tf_ok_1, g_1.c[j]);

struct F {
  unsigned int tag;
  unsigned int a[3][8];
};
struct G {
  const unsigned int c[2][4];
};

#pragma tfuse coarsen
__global__ void k(unsigned int *out, const unsigned int *in, unsigned int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  F f;
  f.tag = in[i];
  for (int e = 0; e < 24; e++)
    (&f.a[0][0])[e] = s + (unsigned int)e + f.tag;
  G g = {{{1u, 2u, 3u, 4u}, {f.tag, 6u, 7u, 8u}}};
  unsigned int acc = 0u;
  for (int j = 0; j < 2; j++) {
    unsigned int *q = f.a[j];
    const unsigned int *r = g.c[j];
    q[j % 8] += s ^ (unsigned int)j;
    acc += q[3] + r[1];
  }
  out[i] = acc;
}

void launch(unsigned int *out, const unsigned int *in, int blocks) { k<<<blocks, 96>>>(out, in, 7u); }
