// Block mode along x and y with grids that no factor divides (5 x 3 blocks
// by 2 x 2): the launch rounds each extent up, the kernel takes both
// original extents first, and copy (rx, ry) is live when both its indices
// are (__tf_ok_x1 && __tf_ok_y1; an index 0 always is).  A statement that
// varies only along x is guarded by __tf_ok_x1 alone: it runs when any of
// its copies would.  With -check the launch runs the original and the
// coarsened kernel under the check runtime, the grid rescaled along both.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2,2 -dim x,y %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -check -factor 2,2 -dim x,y %t.in.cu -o %t.check.cu
// RUN: FileCheck --check-prefix=CHK %s < %t.check.cu
// RUN: %nvcc-check %t.check.cu

// CHECK-LABEL: __global__ void scale(unsigned int __tf_grid_x, unsigned int __tf_grid_y, float *rows, float *cols, float *m, int w) {
// CHECK:        const bool __tf_ok_x1 = blockIdx.x * 2 + 1 < __tf_grid_x;
// CHECK-NEXT:   const bool __tf_ok_y1 = blockIdx.y * 2 + 1 < __tf_grid_y;
// CHECK-NEXT:   int c_x0 = (blockIdx.x * 2) * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int c_x1 = (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int r_y0 = (blockIdx.y * 2) * blockDim.y + threadIdx.y;
// CHECK-NEXT:   int r_y1 = (blockIdx.y * 2 + 1) * blockDim.y + threadIdx.y;
// CHECK-NEXT:   if (threadIdx.y == 0) {
// CHECK-NEXT:     cols[c_x0] = 2.0f * c_x0;
// CHECK-NEXT:     if (__tf_ok_x1) cols[c_x1] = 2.0f * c_x1;
// CHECK-NEXT:   }
// CHECK-NEXT:   m[r_y0 * w + c_x0] += 1.0f;
// CHECK-NEXT:   if (__tf_ok_x1) m[r_y0 * w + c_x1] += 1.0f;
// CHECK-NEXT:   if (__tf_ok_y1) m[r_y1 * w + c_x0] += 1.0f;
// CHECK-NEXT:   if (__tf_ok_x1 && __tf_ok_y1) m[r_y1 * w + c_x1] += 1.0f;
// CHECK-LABEL: void host(
// CHECK-NEXT:   { const dim3 __tf_grid = (dim3(5, 3)); scale<<<::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 1, 2u), dim3(32, 8)>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::grid_extent(__tf_grid, 1), r, c, mm, w); }

// CHK:      __global__ void scale__tf_orig(float *rows, float *cols, float *m, int w) {
// CHK:      scale__tf_orig<<<__tf_grid, __tf_block>>>(r, c, mm, w);
// CHK-NEXT: __tf_check.original_done();
// CHK-NEXT: if (__tf_check.again()) { scale__tf_orig<<<__tf_grid, __tf_block>>>(r, c, mm, w); __tf_check.again_done(); }
// CHK-NEXT: scale<<<::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 1, 2u), __tf_block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::grid_extent(__tf_grid, 1), r, c, mm, w);

#pragma tfuse coarsen
__global__ void scale(float *rows, float *cols, float *m, int w) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (threadIdx.y == 0)
    cols[c] = 2.0f * c;
  m[r * w + c] += 1.0f;
}

void host(float *r, float *c, float *mm, int w) {
  scale<<<dim3(5, 3), dim3(32, 8)>>>(r, c, mm, w);
}
