// Not promoted: an atomic on the array (it takes an element's address, and
// other threads may update the element at any time).  -report names the
// atomic at its `&`.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
// RUN: %nvcc-check %t.cu

// REMARK: :[[# @LINE + 11]]:13: remark: shared array 'hist' is not promoted to registers: 'atomicAdd' updates it atomically

// CHECK-LABEL: __global__ void k(
// CHECK-NOT:  _reg

#pragma tfuse coarsen
__global__ void k(const int *in, int *out) {
  __shared__ int hist[256];
  int t = threadIdx.x;
  hist[t] = 0;
  __syncthreads();
  atomicAdd(&hist[in[t] & 255], 1);
  __syncthreads();
  out[t] = hist[t];
}

void host(const int *in, int *out) { k<<<1, 256>>>(in, out); }
