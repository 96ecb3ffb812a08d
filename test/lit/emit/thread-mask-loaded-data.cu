// Thread mode refuses lane arithmetic on the thread index (`tid & 31`), but
// a value loaded from memory is data, not a lane number, even when its
// address depends on the thread: `in[i] & 31` and `(in[i] >> 5) % 32` are
// coarsened.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -mode thread -factor 2 %t.in.cu -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK: c[i_0] = in[i_0] & 31;
// CHECK: c[i_1] = in[i_1] & 31;

#pragma tfuse coarsen
__global__ void k(const unsigned *in, unsigned *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = in[i] & 31;
  c[i] += (in[i] >> 5) % 32;
}

int main() {
  k<<<10, 128>>>(nullptr, nullptr);
  return 0;
}
