// -skip-unsafe turns a refusal into a warning: the kernel that cannot be
// coarsened is left unchanged (pragma, body and launches), the others are
// coarsened, and tfuse succeeds.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -skip-unsafe %t.in.cu -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// DIAG-NOT: error:
// DIAG: .in.cu:[[@LINE+18]]:5: warning: kernel 'unsafe' left unchanged: __syncthreads() under control that differs between the copies: the merged blocks would need different barriers
// DIAG-NOT: error:

// CHECK:      {{^}}#pragma tfuse coarsen
// CHECK-NEXT: {{^}}__global__ void unsafe(float *o, int n) {
// CHECK-NEXT:   if (blockIdx.x < n + threadIdx.x)
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   o[blockIdx.x] = 1.0f;
// CHECK-NEXT: }
// CHECK:      /* tfuse: coarsened by 2, block mode along x */
// CHECK-NEXT: __global__ void safe(unsigned int __tf_grid_x, float *o) {
// CHECK-LABEL: void host(float *p) {
// CHECK-NEXT: unsafe<<<4, 32>>>(p, 2);
// CHECK-NEXT: { const dim3 __tf_grid = (4); safe<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }

#pragma tfuse coarsen
__global__ void unsafe(float *o, int n) {
  if (blockIdx.x < n + threadIdx.x)
    __syncthreads();
  o[blockIdx.x] = 1.0f;
}

#pragma tfuse coarsen
__global__ void safe(float *o) {
  o[blockIdx.x] = 2.0f;
}

void host(float *p) {
  unsafe<<<4, 32>>>(p, 2);
  safe<<<4, 32>>>(p);
}
