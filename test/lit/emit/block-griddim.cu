// Block mode: the kernel receives the original grid extent as an added
// parameter `unsigned int __tf_grid_x`; gridDim.x reads it (the logical
// grid), gridDim.y is untouched, and each copy r > 0 is live only when its
// logical block blockIdx.x * K + r lies inside the original grid
// (__tf_ok_r), which guards its memory accesses and its loop replica.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(unsigned int __tf_grid_x, float *out, int n) {
// CHECK-NEXT: /* tfuse: this thread runs logical blocks blockIdx.x * 2 + r, r = 0..1 */
// CHECK-NEXT: const bool __tf_ok_1 = blockIdx.x * 2 + 1 < __tf_grid_x;
// CHECK-NEXT: int stride = __tf_grid_x * blockDim.x;
// CHECK-NEXT: for (int i_0 = (blockIdx.x * 2) * blockDim.x + threadIdx.x; i_0 < n; i_0 += stride)
// CHECK-NEXT:   out[i_0] = __tf_grid_x + gridDim.y;
// CHECK-NEXT: if (__tf_ok_1) for (int i_1 = (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x; i_1 < n; i_1 += stride)
// CHECK-NEXT:   out[i_1] = __tf_grid_x + gridDim.y;
// CHECK-NEXT: }
// CHECK-NOT:  gridDim.x

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = gridDim.x + gridDim.y;
}
