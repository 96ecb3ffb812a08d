// Thread mode along x and y (-factor 2,4): each thread runs 2 x 4 logical
// threads of its block, threadIdx.x + rx * blockDim.x and threadIdx.y + ry
// * blockDim.y; blockDim is the original's (blockDim.x * 2, blockDim.y * 4);
// shared memory stays one array per block.  The launch divides the block
// along each dimension, checked at run time per dimension, and
// __launch_bounds__ shrinks by the product (256 / 8).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2,4 -dim x,y -mode thread %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* tfuse: coarsened by 2,4 (8 copies), thread mode along x,y, stride */
// CHECK-NEXT: __global__ void __launch_bounds__(32) transpose(float *out, const float *in, int n) {
// CHECK-NEXT:   /* tfuse: this thread runs logical threads (threadIdx.x + rx * blockDim.x, threadIdx.y + ry * blockDim.y), rx = 0..1, ry = 0..3; copy (rx, ry) of a variable is v_x<rx>y<ry> */
// CHECK-NEXT:   __shared__ float t[16][17];
// CHECK-NEXT:   int x_x0 = blockIdx.x * (blockDim.x * 2) + (threadIdx.x);
// CHECK-NEXT:   int x_x1 = blockIdx.x * (blockDim.x * 2) + (threadIdx.x + 1 * blockDim.x);
// CHECK-NEXT:   int y_y0 = blockIdx.y * (blockDim.y * 4) + (threadIdx.y);
// CHECK:        int y_y3 = blockIdx.y * (blockDim.y * 4) + (threadIdx.y + 3 * blockDim.y);
// CHECK-NEXT:   const bool __tf_p1_x0y0 = (x_x0 < n && y_y0 < n);
// CHECK:        const bool __tf_p1_x1y3 = (x_x1 < n && y_y3 < n);
// CHECK-NEXT:   if (__tf_p1_x0y0 || __tf_p1_x1y0 || __tf_p1_x0y1 || __tf_p1_x1y1 || __tf_p1_x0y2 || __tf_p1_x1y2 || __tf_p1_x0y3 || __tf_p1_x1y3) {
// CHECK-NEXT:     if (__tf_p1_x0y0) t[(threadIdx.y)][(threadIdx.x)] = in[y_y0 * n + x_x0];
// CHECK:          if (__tf_p1_x1y3) t[(threadIdx.y + 3 * blockDim.y)][(threadIdx.x + 1 * blockDim.x)] = in[y_y3 * n + x_x1];
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int ox_x0 = blockIdx.y * (blockDim.y * 4) + (threadIdx.x);
// CHECK-NEXT:   int ox_x1 = blockIdx.y * (blockDim.y * 4) + (threadIdx.x + 1 * blockDim.x);
// CHECK-NEXT:   int oy_y0 = blockIdx.x * (blockDim.x * 2) + (threadIdx.y);
// CHECK:          if (__tf_p2_x1y3) out[oy_y3 * n + ox_x1] = t[(threadIdx.x + 1 * blockDim.x)][(threadIdx.y + 3 * blockDim.y)];
// CHECK-LABEL: void host(
// CHECK-NEXT:   transpose<<<dim3(n / 16, n / 16), ::tfuse_rt::coarsen_block(::tfuse_rt::coarsen_block(dim3(16, 16), 0, 2u, "transpose", "{{.*}}:{{[0-9]+}}"), 1, 4u, "transpose", "{{.*}}:{{[0-9]+}}")>>>(o, i, n);

#pragma tfuse coarsen
__global__ void __launch_bounds__(256) transpose(float *out, const float *in, int n) {
  __shared__ float t[16][17];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) t[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  int ox = blockIdx.y * blockDim.y + threadIdx.x, oy = blockIdx.x * blockDim.x + threadIdx.y;
  if (ox < n && oy < n) out[oy * n + ox] = t[threadIdx.x][threadIdx.y];
}

void host(float *o, const float *i, int n) {
  transpose<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(o, i, n);
}
