// Block mode along x and y: a shared array is replicated along exactly the
// dimensions its contents vary in.  rowt is written from blockIdx.y alone
// (one replica per ry), colt from blockIdx.x alone (one per rx), tile from
// both (one per copy), and once from neither (a single array, its store
// emitted once).  A dead copy's store into its own replica keeps its guard
// on the value (rowt_y1 by __tf_ok_y1 only).  The merged block declares
// 2 + 2 + 4 + 1 arrays, not 4 of each.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2,2 -dim x,y %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void tiles(unsigned int __tf_grid_x, unsigned int __tf_grid_y, float *out, const float *in, int n) {
// CHECK:        __shared__ float rowt_y0[16];
// CHECK-NEXT:   __shared__ float rowt_y1[16];
// CHECK-NEXT:   __shared__ float colt_x0[16];
// CHECK-NEXT:   __shared__ float colt_x1[16];
// CHECK-NEXT:   __shared__ float tile_x0y0[16][16];
// CHECK-NEXT:   __shared__ float tile_x1y0[16][16];
// CHECK-NEXT:   __shared__ float tile_x0y1[16][16];
// CHECK-NEXT:   __shared__ float tile_x1y1[16][16];
// CHECK-NEXT:   __shared__ float once[16];
// CHECK:        if (tx == 0) {
// CHECK-NEXT:     rowt_y0[ty] = in[(blockIdx.y * 2) * 16 + ty];
// CHECK-NEXT:     rowt_y1[ty] = __tf_ok_y1 ? (in[(blockIdx.y * 2 + 1) * 16 + ty]) : 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (ty == 0) {
// CHECK-NEXT:     colt_x0[tx] = in[n + (blockIdx.x * 2) * 16 + tx];
// CHECK-NEXT:     colt_x1[tx] = __tf_ok_x1 ? (in[n + (blockIdx.x * 2 + 1) * 16 + tx]) : 0;
// CHECK-NEXT:   }
// CHECK-NEXT:   once[tx] = tx * 0.5f;
// CHECK-NEXT:   tile_x0y0[ty][tx] = in[2 * n + ((blockIdx.y * 2) * 16 + ty) * n + (blockIdx.x * 2) * 16 + tx];
// CHECK-NEXT:   tile_x1y0[ty][tx] = __tf_ok_x1 ? (in[2 * n + ((blockIdx.y * 2) * 16 + ty) * n + (blockIdx.x * 2 + 1) * 16 + tx]) : 0;
// CHECK-NEXT:   tile_x0y1[ty][tx] = __tf_ok_y1 ? (in[2 * n + ((blockIdx.y * 2 + 1) * 16 + ty) * n + (blockIdx.x * 2) * 16 + tx]) : 0;
// CHECK-NEXT:   tile_x1y1[ty][tx] = __tf_ok_x1 && __tf_ok_y1 ? (in[2 * n + ((blockIdx.y * 2 + 1) * 16 + ty) * n + (blockIdx.x * 2 + 1) * 16 + tx]) : 0;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   const float [[O:__tf_u[0-9]+]] = once[ty]; /* tfuse: the same for every copy, loaded once */
// CHECK-NEXT:   out[((blockIdx.y * 2) * 16 + ty) * n + (blockIdx.x * 2) * 16 + tx] = rowt_y0[ty] * colt_x0[tx] + tile_x0y0[tx][ty] + [[O]];
// CHECK-NEXT:   if (__tf_ok_x1) out[((blockIdx.y * 2) * 16 + ty) * n + (blockIdx.x * 2 + 1) * 16 + tx] = rowt_y0[ty] * colt_x1[tx] + tile_x1y0[tx][ty] + [[O]];
// CHECK-NEXT:   if (__tf_ok_y1) out[((blockIdx.y * 2 + 1) * 16 + ty) * n + (blockIdx.x * 2) * 16 + tx] = rowt_y1[ty] * colt_x0[tx] + tile_x0y1[tx][ty] + [[O]];
// CHECK-NEXT:   if (__tf_ok_x1 && __tf_ok_y1) out[((blockIdx.y * 2 + 1) * 16 + ty) * n + (blockIdx.x * 2 + 1) * 16 + tx] = rowt_y1[ty] * colt_x1[tx] + tile_x1y1[tx][ty] + [[O]];

#pragma tfuse coarsen
__global__ void tiles(float *out, const float *in, int n) {
  __shared__ float rowt[16];
  __shared__ float colt[16];
  __shared__ float tile[16][16];
  __shared__ float once[16];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx == 0)
    rowt[ty] = in[blockIdx.y * 16 + ty];
  if (ty == 0)
    colt[tx] = in[n + blockIdx.x * 16 + tx];
  once[tx] = tx * 0.5f;
  tile[ty][tx] = in[2 * n + (blockIdx.y * 16 + ty) * n + blockIdx.x * 16 + tx];
  __syncthreads();
  out[(blockIdx.y * 16 + ty) * n + blockIdx.x * 16 + tx] = rowt[ty] * colt[tx] + tile[tx][ty] + once[ty];
}

void host(float *o, const float *in, int n) { tiles<<<dim3(5, 3), dim3(16, 16)>>>(o, in, n); }
