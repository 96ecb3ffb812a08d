// Block mode along y with dim3 variables: the grid variable is copied (the
// user's `grid` is not modified), its y extent is rounded up by the
// factor, and the original y extent is passed to the kernel.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: void host(float *p, int w, int h) {
// CHECK-NEXT: dim3 grid(w / 16, h / 16), block(16, 16);
// CHECK-NEXT: { const dim3 __tf_grid = (grid); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 1, 2u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 1), p, w); }
// CHECK-NEXT: k2<<<grid, block>>>(p);
// CHECK-NEXT: }

#pragma tfuse coarsen dim(y)
__global__ void k(float *out, int w) {
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * w + blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void k2(float *out) { out[0] = 0.0f; }

void host(float *p, int w, int h) {
  dim3 grid(w / 16, h / 16), block(16, 16);
  k<<<grid, block>>>(p, w);
  k2<<<grid, block>>>(p);
}
