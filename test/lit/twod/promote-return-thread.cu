// Thread mode along x and y: register promotion gives each copy (rx, ry)
// its own register for the element it owns (s_reg_x1y0: the owner's index
// uses threadIdx.x and threadIdx.y, along which the merged threads
// differ); -report says so.  A varying return clears each copy's own live
// flag, and later statements are guarded by it.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -report %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: %nvcc-check %t.cu

// REPORT: {{.*}}.in.cu:26:20: remark: shared array 's' is promoted to registers: every store is at the owner's index s[y][x], so each logical thread keeps its element in a register and reads it from there

// CHECK:      bool __tf_live_x0y0 = true;
// CHECK:      bool __tf_live_x1y1 = true;
// CHECK-NEXT: __shared__ float s[8][8];
// CHECK-NEXT: float s_reg_x0y0, s_reg_x1y0, s_reg_x0y1, s_reg_x1y1; /* tfuse: the copies' own elements of s[y][x], kept in registers */
// CHECK:      s[y_y0][x_x1] = s_reg_x1y0 = in[y_y0 * 8 + x_x1];
// CHECK:      out[y_y1 * 8 + x_x0] = s_reg_x0y1 * 2.0f + s[x_x0][y_y1];
// CHECK:      if (__tf_p1_x1y0) __tf_live_x1y0 = false;
// CHECK:      if (__tf_live_x1y1) out[64 + y_y1 * 8 + x_x1] = s_reg_x1y1;

#pragma tfuse coarsen factor(2,2) dim(x,y) mode(thread)
__global__ void p(float *out, const float *in, int n) {
  __shared__ float s[8][8];
  int x = threadIdx.x, y = threadIdx.y;
  s[y][x] = in[y * 8 + x];
  __syncthreads();
  out[y * 8 + x] = s[y][x] * 2.0f + s[x][y];
  if (x + y > n)
    return;
  out[64 + y * 8 + x] = s[y][x];
}

void host(float *o, const float *i, int n) { p<<<1, dim3(8, 8)>>>(o, i, n); }
