// -factor auto on a template kernel in a namespace: the variants keep the
// template header and stay in the namespace; launches with and without
// explicit template arguments, under an `if` and in a loop body, name the
// variant with the same arguments; each launch has its own site.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -candidates 4 -kernel tk %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      template <typename T>
// CHECK-NEXT: __global__ void tk__tf_k1(T *out, int n) {
// CHECK:      template <typename T>
// CHECK-NEXT: __global__ void tk__tf_bx4(unsigned int __tf_grid_x, T *out, int n) {
// CHECK:      default: tk__tf_k1<float><<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(o, n); break;
// CHECK-NEXT: case 1: tk__tf_bx4<float><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), o, n); break;
// CHECK:      default: tk__tf_k1<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(d, n); break;
// CHECK:      if (n) { const dim3 __tf_grid = (1);
// CHECK:      for (int j = 0; j < 2; j++)
// CHECK-NEXT:   { const dim3 __tf_grid = (1);

namespace ns {
template <typename T>
__global__ void tk(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (T)i;
}
void run(float *o, double *d, int n) {
  tk<float><<<n / 64, 64>>>(o, n);
  tk<<<n / 64, 64>>>(d, n);
  if (n) tk<float><<<1, 64>>>(o, n);
  for (int j = 0; j < 2; j++)
    tk<float><<<1, 64>>>(o, j);
}
}
