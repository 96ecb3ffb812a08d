// Two kernels with different factors and modes in one file: each is
// coarsened with its own parameters, and each launch is rewritten for the
// kernel it calls.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* tfuse: coarsened by 4, block mode along x */
// CHECK-NEXT: __global__ void a(unsigned int __tf_grid_x, float *o) {
// CHECK:        if (__tf_ok_3) o[(blockIdx.x * 4 + 3) * blockDim.x + threadIdx.x] = 1.0f;
// CHECK:      /* tfuse: coarsened by 2, thread mode along x, stride */
// CHECK-NEXT: __global__ void b(float *o) {
// CHECK:        o[blockIdx.x * (blockDim.x * 2) + (threadIdx.x + 1 * blockDim.x)] = 2.0f;
// CHECK-LABEL: void host(float *p) {
// CHECK-NEXT: { const dim3 __tf_grid = (16); a<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: b<<<16, ::tfuse_rt::coarsen_block(64, 0, 2u, "b", "{{.*}}:[[#@LINE+14]]")>>>(p);

#pragma tfuse coarsen factor(4)
__global__ void a(float *o) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

#pragma tfuse coarsen factor(2) mode(thread)
__global__ void b(float *o) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}

void host(float *p) {
  a<<<16, 64>>>(p);
  b<<<16, 64>>>(p);
}
