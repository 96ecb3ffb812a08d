// -no-promote turns register promotion off: the same kernel keeps all its
// shared loads, and -report says promotion is off.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -no-promote -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu

// REMARK: remark: register promotion is off (-no-promote): the shared arrays of 'k' keep their loads

// CHECK-LABEL: __global__ void k(
// CHECK-NOT:  _reg
// CHECK:      s[t_0] = in[t_0];
// CHECK:      out[t_0] = s[t_0] * s[t_0 ^ 1];
// CHECK-NOT:  _reg

#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[t] * s[t ^ 1];
}

void host(const float *in, float *out) { k<<<1, 64>>>(in, out); }
