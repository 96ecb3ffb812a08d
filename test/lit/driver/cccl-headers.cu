// Verifies that CCCL's headers (cub, thrust, cuda/std), which nvcc finds in
// an include folder it adds itself (CUDA 13: include/cccl), are found: tfuse
// asks nvcc for its folders.  The kernel is coarsened and nvcc compiles the
// result.
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <cuda/std/cstdint>
#include <cuda/std/limits>

// CHECK-LABEL: __global__ void fill(unsigned int __tf_grid_x, cuda::std::int32_t *a)
// CHECK: a[(blockIdx.x * 2) * blockDim.x + threadIdx.x] = cuda::std::numeric_limits<cuda::std::int32_t>::max();
#pragma tfuse coarsen
__global__ void fill(cuda::std::int32_t *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] = cuda::std::numeric_limits<cuda::std::int32_t>::max();
}

int total(int n) {
  thrust::device_vector<cuda::std::int32_t> v(n);
  fill<<<n / 128, 128>>>(thrust::raw_pointer_cast(v.data()));
  return thrust::reduce(v.begin(), v.end());
}
