// A specialization marked alone. In thread mode the signature does not
// change: it is coarsened and the template's launch `g<32><<<` is left as
// it is (a launch of another function of the same name). In block mode the
// specialization would gain the grid parameter and no longer match its
// template: refused at its name, nothing written.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: not %tfuse -factor 2 %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: test ! -e %t.out

// THREAD: g<32><<<10, 128>>>(p);
// THREAD: g<64><<<10, ::tfuse_rt::coarsen_block(128, 0, 2u, "g",

template <int B> __global__ void g(float *c) { c[blockIdx.x * B + threadIdx.x] = B; }
// ERR: .in.cu:[[@LINE+2]]:29: error: explicit specialization of template kernel 'g' is coarsened but its template is not: in block mode both get an extra parameter, so coarsen the template and its specializations alike
#pragma tfuse coarsen
template <> __global__ void g<64>(float *c) { c[blockIdx.x * 64 + threadIdx.x] = 1; }

int main() {
  float *p = nullptr;
  g<32><<<10, 128>>>(p);
  g<64><<<10, 128>>>(p);
  return 0;
}
