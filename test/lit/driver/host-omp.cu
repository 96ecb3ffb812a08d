// <omp.h> lives in the host compiler's own include folder (gcc's), which
// nvcc searches and clang does not: tfuse's parser gets the host
// compiler's folders after its own (host-compiler-includes.test), so a file
// with OpenMP host code parses, and nvcc compiles the output.
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// CHECK: #include <omp.h>
// CHECK-LABEL: __global__ void fill(unsigned int __tf_grid_x, float *o)
// CHECK: o[(blockIdx.x * 2) * blockDim.x + threadIdx.x] = 1.0f;
#include <omp.h>

#pragma tfuse coarsen
__global__ void fill(float *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

int main() {
  int n = omp_get_max_threads();
  fill<<<n, 32>>>(nullptr);
  return 0;
}
