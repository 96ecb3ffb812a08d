// Factors along x and y (block mode, 2 x 3 logical blocks per block): a
// value that varies only along x has one copy per rx (i_x0, i_x1), one that
// varies only along y one per ry, a uniform one a single copy, and only
// what depends on both has all six (x<rx>y<ry>).  A copy's loads are guarded
// by the liveness of its own indices: u_x1 by __tf_ok_x1 alone, v_y2 by
// __tf_ok_y2, the store of copy (1, 2) by both.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* tfuse: coarsened by 2,3 (6 copies), block mode along x,y */
// CHECK-NEXT: __global__ void k(unsigned int __tf_grid_x, unsigned int __tf_grid_y, float *out, const float *a, const float *b, int n) {
// CHECK-NEXT:   /* tfuse: this thread runs logical blocks (blockIdx.x * 2 + rx, blockIdx.y * 3 + ry), rx = 0..1, ry = 0..2; copy (rx, ry) of a variable is v_x<rx>y<ry> */
// CHECK-NEXT:   const bool __tf_ok_x1 = blockIdx.x * 2 + 1 < __tf_grid_x;
// CHECK-NEXT:   const bool __tf_ok_y1 = blockIdx.y * 3 + 1 < __tf_grid_y;
// CHECK-NEXT:   const bool __tf_ok_y2 = blockIdx.y * 3 + 2 < __tf_grid_y;
// CHECK-NEXT:   int i_x0 = (blockIdx.x * 2) * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int i_x1 = (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int j_y0 = (blockIdx.y * 3) * blockDim.y + threadIdx.y;
// CHECK-NEXT:   int j_y1 = (blockIdx.y * 3 + 1) * blockDim.y + threadIdx.y;
// CHECK-NEXT:   int j_y2 = (blockIdx.y * 3 + 2) * blockDim.y + threadIdx.y;
// CHECK-NEXT:   float s = 2.0f * n;
// CHECK-NEXT:   float u_x0 = a[i_x0] * s;
// CHECK-NEXT:   float u_x1 = TFUSE_GUARD(__tf_ok_x1, a[i_x1] * s);
// CHECK-NEXT:   float v_y0 = b[j_y0];
// CHECK-NEXT:   float v_y1 = TFUSE_GUARD(__tf_ok_y1, b[j_y1]);
// CHECK-NEXT:   float v_y2 = TFUSE_GUARD(__tf_ok_y2, b[j_y2]);
// CHECK-NEXT:   float w_x0y0 = u_x0 + v_y0;
// CHECK-NEXT:   float w_x1y0 = u_x1 + v_y0;
// CHECK:        float w_x1y2 = u_x1 + v_y2;
// CHECK-NEXT:   const bool __tf_p1_x0y0 = (i_x0 < n && j_y0 < n);
// CHECK:        const bool __tf_p1_x1y2 = __tf_ok_x1 && __tf_ok_y2 && (i_x1 < n && j_y2 < n);
// CHECK-NEXT:   if (__tf_p1_x0y0 || __tf_p1_x1y0 || __tf_p1_x0y1 || __tf_p1_x1y1 || __tf_p1_x0y2 || __tf_p1_x1y2) {
// CHECK-NEXT:     if (__tf_p1_x0y0) out[j_y0 * n + i_x0] = w_x0y0;
// CHECK:          if (__tf_p1_x1y2) out[j_y2 * n + i_x1] = w_x1y2;
// CHECK-NEXT:   }
// CHECK-NOT:  u_x0y
// CHECK-NOT:  v_x
// CHECK-LABEL: void host(
// CHECK-NEXT: { const dim3 __tf_grid = (dim3((n + 15) / 16, (n + 15) / 16)); k<<<::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 1, 3u), dim3(16, 16)>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::grid_extent(__tf_grid, 1), o, a, b, n); }

#pragma tfuse coarsen factor(2,3) dim(x,y)
__global__ void k(float *out, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 2.0f * n;
  float u = a[i] * s;
  float v = b[j];
  float w = u + v;
  if (i < n && j < n)
    out[j * n + i] = w;
}

void host(float *o, const float *a, const float *b, int n) {
  k<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(o, a, b, n);
}
