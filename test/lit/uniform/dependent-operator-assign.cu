// In a template kernel whose unit declares operator+= overloads (here
// cooperative groups' headers), `acc += v` is a dependent operator call;
// its left operand is the first argument of the candidates and is written:
// a varying v makes acc varying, one per copy (it was once left shared by
// the copies, a silent miscompile in thread mode and block mode alike).
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -dump-after=uniform -factor 2 -mode thread %t.in.cu | FileCheck %s --check-prefix=DUMP
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %nvcc-check %t.block.cu
// REQUIRES: nvcc
#include <cooperative_groups.h>

// DUMP: VAR 'acc' <{{[0-9:]+}}> varying [varying]
// DUMP: CALL 'operator+=' <{{[0-9:]+}}> varying
// THREAD: float acc_0 = 0.f;
// THREAD: float acc_1 = 0.f;
// THREAD: acc_0 += s[i] * (0.f - at_0);
// THREAD: acc_1 += s[i] * (0.f - at_1);
// THREAD: out[blockIdx.x * B + (threadIdx.x)] = acc_0;
// THREAD: out[blockIdx.x * B + (threadIdx.x + 1 * blockDim.x)] = acc_1;
// BLOCK: acc_0 += s_0[i] * (0.f - at_0);
// BLOCK: if (__tf_ok_1) acc_1 += s_1[i] * (0.f - at_1);
#pragma tfuse coarsen
template <int B> __global__ void k(float *out, const float *in) {
  __shared__ float s[B];
  float acc = 0.f;
  float at = in[blockIdx.x * B + threadIdx.x];
  s[threadIdx.x] = at;
  __syncthreads();
  for (int i = 0; i < 4; i++)
    acc += s[i] * (0.f - at);
  out[blockIdx.x * B + threadIdx.x] = acc;
}

void run(float *o, const float *i) { k<256><<<4, 256>>>(o, i); }
