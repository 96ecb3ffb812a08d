// Only launches of coarsened kernels are rewritten: a kernel without the
// pragma keeps its definition and its launches exactly as written, next to
// a rewritten launch of the coarsened one.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      {{^}}__global__ void plain(float *out) { out[blockIdx.x] = 0.0f; }
// CHECK-LABEL: void host(float *p) {
// CHECK-NEXT: plain<<<8, 32>>>(p);
// CHECK-NEXT: { const dim3 __tf_grid = (8); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 32>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: plain<<<dim3(8), dim3(32), 0>>>(p);
// CHECK-NEXT: }

__global__ void plain(float *out) { out[blockIdx.x] = 0.0f; }

#pragma tfuse coarsen
__global__ void k(float *out) { out[blockIdx.x] = 1.0f; }

void host(float *p) {
  plain<<<8, 32>>>(p);
  k<<<8, 32>>>(p);
  plain<<<dim3(8), dim3(32), 0>>>(p);
}
