// Placement new in device code without <new>: nvcc's headers include <new>
// and declare placement new for device code (crt/common_functions.h), so
// CCCL's cub/block/block_load.cuh (reached through thrust's sort) and code
// like construct() below compile with nvcc.  tfuse's parser used to stop at
// "no matching 'operator new' function for non-allocating placement new
// expression": libclang's driver missed clang's CUDA wrapper headers
// (cuda_wrappers/new), and nothing included <new>.  Both are given to the
// parser only: the output includes nothing more.
// REQUIRES: nvcc
// RUN: sed "s#^//.*##" %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// CHECK-NOT: {{#include <(math.h|time.h|new)>}}
// CHECK-LABEL: __global__ void k(unsigned int __tf_grid_x, float *o, float x)
// CHECK: construct(items_0, x);
// CHECK-NEXT: if (__tf_ok_1) construct(items_1, x);
#include <cub/block/block_load.cuh>

template <class T> __device__ void construct(T *items, T x) {
  for (int i = 0; i < 4; i++)
    new (&items[i]) T(x + i);
}

#pragma tfuse coarsen
__global__ void k(float *o, float x) {
  float items[4];
  construct(items, x);
  o[blockIdx.x * blockDim.x + threadIdx.x] = items[threadIdx.x % 4];
}

int main() {
  k<<<4, 32>>>(nullptr, 1.0f);
  return 0;
}
