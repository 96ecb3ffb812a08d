// Verifies that code written `#if __CUDACC_VER_MAJOR__ >= 11` takes the
// branch nvcc takes (the macro is nvcc's, asked of nvcc), and that a tfuse
// pragma in a branch the preprocessor skips is no pragma at all: the kernel
// of the taken branch is coarsened, the other branch's pragma (even a
// malformed one) is not read.
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// CHECK: __global__ void modern(unsigned int __tf_grid_x, float *a) {
// CHECK: modern<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), a);

#if __CUDACC_VER_MAJOR__ >= 11
#pragma tfuse coarsen
__global__ void modern(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
void run(float *a, int n) { modern<<<n / 64, 64>>>(a); }
#else
#pragma tfuse coarsen
__global__ void legacy(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
void run(float *a, int n) { legacy<<<n / 64, 64>>>(a); }
#endif

#if 0
#pragma tfuse coarsen factor(banana)
#endif
