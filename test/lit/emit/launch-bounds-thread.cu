// Thread mode: a block has 1/K of the original threads, so the kernel's
// __launch_bounds__ maximum becomes ceil(N/K) (a literal is computed, any
// other expression is divided in the text); the optional second argument
// stays.  Left at N, nvcc would budget registers for N threads and spill
// the copies' registers.  Block mode keeps the block, and the bound.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches -factor 4 -mode thread %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -external-launches -factor 4 -mode block %t.in.cu -o %t.b.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.b.cu
// RUN: %nvcc-check %t.b.cu

// CHECK: __global__ void __launch_bounds__(256) a(
// CHECK: __global__ void __launch_bounds__(((NT) + 4 - 1) / 4, 2) b(
// BLOCK: __global__ void __launch_bounds__(1024) a(
// BLOCK: __global__ void __launch_bounds__(NT, 2) b(

#define NT 512

#pragma tfuse coarsen
__global__ void __launch_bounds__(1024) a(float *out) {
  out[threadIdx.x] = 1.0f;
}

#pragma tfuse coarsen
__global__ void __launch_bounds__(NT, 2) b(float *out) {
  out[threadIdx.x] = 2.0f;
}
