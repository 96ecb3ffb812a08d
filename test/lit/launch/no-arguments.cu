// A kernel without parameters gets the grid extent as its only parameter,
// and its empty launch argument list becomes that one argument; a launch
// spread over several lines is rewritten in place, line breaks kept.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      __global__ void k(unsigned int __tf_grid_x) {
// CHECK-LABEL: void host(int n) {
// CHECK-NEXT: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0)); }
// CHECK-NEXT: { const dim3 __tf_grid = (n / 2); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u),
// CHECK-NEXT:       32>>>(::tfuse_rt::grid_extent(__tf_grid, 0)
// CHECK-NEXT:   ); }
// CHECK-NEXT: }

__device__ float g_out[1024];

#pragma tfuse coarsen
__global__ void k() {
  g_out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

void host(int n) {
  k<<<n, 32>>>();
  k<<<
      n / 2,
      32>>>(
  );
}
