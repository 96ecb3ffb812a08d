// -factor auto: a helper that reads the coarsened index is cloned per
// variant, each clone named after its variant (helper__tf_k_bx2,
// helper__tf_k_bx4), so that the variants' clones do not collide.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -candidates 2,4 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: __device__ int gid__tf_k_bx2(unsigned int __tf_r,
// CHECK: __global__ void k__tf_bx2(
// CHECK: __device__ int gid__tf_k_bx4(unsigned int __tf_r,
// CHECK: __global__ void k__tf_bx4(
// CHECK: gid__tf_k_bx4(3, __tf_grid_x)
__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

#pragma tfuse coarsen
__global__ void k(int *out) { out[gid()] = 1; }

void run(int *out, int n) { k<<<n, 128>>>(out); }
