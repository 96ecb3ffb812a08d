// K = 16 works: sixteen copies named _0 .. _15, fifteen __tf_ok guards,
// and the launch divides the grid by 16u.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 16 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: /* tfuse: coarsened by 16, block mode along x */
// CHECK:      const bool __tf_ok_1 = blockIdx.x * 16 + 1 < __tf_grid_x;
// CHECK-COUNT-13: const bool __tf_ok_{{[0-9]+}} =
// CHECK-NEXT: const bool __tf_ok_15 = blockIdx.x * 16 + 15 < __tf_grid_x;
// CHECK-NEXT: int i_0 = (blockIdx.x * 16) * blockDim.x + threadIdx.x;
// CHECK:      int i_15 = (blockIdx.x * 16 + 15) * blockDim.x + threadIdx.x;
// CHECK-NEXT: out[i_0] = 1.0f;
// CHECK:      if (__tf_ok_15) out[i_15] = 1.0f;
// CHECK-NEXT: }
// CHECK:      k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 16u), 256>>>
// CHECK-NOT:  _16

#pragma tfuse coarsen
__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;
}

void host(float *p) { k<<<100, 256>>>(p); }
