// Three dimensions (-factor 2,2,2 -dim x,y,z, block mode): copy (rx, ry, rz)
// is named v_x<rx>y<ry>z<rz>; a value of blockIdx.z alone has two copies,
// and the launch rescales all three extents and passes them first.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2,2,2 -dim x,y,z %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      __global__ void v(unsigned int __tf_grid_x, unsigned int __tf_grid_y, unsigned int __tf_grid_z, float *o, int w, int h) {
// CHECK-NEXT:   /* tfuse: this thread runs logical blocks (blockIdx.x * 2 + rx, blockIdx.y * 2 + ry, blockIdx.z * 2 + rz), rx = 0..1, ry = 0..1, rz = 0..1; copy (rx, ry, rz) of a variable is v_x<rx>y<ry>z<rz> */
// CHECK:        int z_z0 = (blockIdx.z * 2);
// CHECK-NEXT:   int z_z1 = (blockIdx.z * 2 + 1);
// CHECK:        o[(z_z1 * h + y_y1) * w + x_x1] = 1.0f;
// CHECK-LABEL: void host(
// CHECK-NEXT: { const dim3 __tf_grid = (dim3(3, 3, 3)); v<<<::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 1, 2u), 2, 2u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::grid_extent(__tf_grid, 1), ::tfuse_rt::grid_extent(__tf_grid, 2), o, w, h); }

#pragma tfuse coarsen
__global__ void v(float *o, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  int z = blockIdx.z;
  o[(z * h + y) * w + x] = 1.0f;
}

void host(float *o, int w, int h) {
  v<<<dim3(3, 3, 3), 32>>>(o, w, h);
}
