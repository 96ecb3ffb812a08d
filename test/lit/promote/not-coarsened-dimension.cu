// Thread mode: the merged threads differ in the coarsened dimension, so an
// owner's index that does not use it names one element for all of them,
// and the array is not promoted (the copies would keep K registers of one
// element).  The statement stays one per copy.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -dim y -report %t.in.cu -o %t.cu 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// REPORT: remark: shared array 't' is not promoted to registers: its owner's index t[threadIdx.x] does not use threadIdx.y, along which the merged threads differ
// CHECK-NOT: t_reg
// CHECK: t[threadIdx.x] += 1;
// CHECK-NEXT: t[threadIdx.x] += 1;

#pragma tfuse coarsen
__global__ void k(int *out) {
  __shared__ int t[64];
  t[threadIdx.x] += 1;
  out[threadIdx.x] = t[threadIdx.x];
}

void run(int *o) { k<<<1, dim3(64, 2, 1)>>>(o); }
