// A launch that is the whole body of a `for` or of an `if`/`else` branch
// without braces is replaced by one braced block (declaration and launch),
// so the loop still repeats the launch and the `else` still binds to its
// `if`.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: void host(float *p, int n) {
// CHECK-NEXT: for (int it = 0; it < 3; ++it)
// CHECK-NEXT:   { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: if (n > 8)
// CHECK-NEXT:   { const dim3 __tf_grid = (n / 2); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: else
// CHECK-NEXT:   { const dim3 __tf_grid = (1); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p); }
// CHECK-NEXT: }

#pragma tfuse coarsen
__global__ void k(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

void host(float *p, int n) {
  for (int it = 0; it < 3; ++it)
    k<<<n, 64>>>(p);
  if (n > 8)
    k<<<n / 2, 64>>>(p);
  else
    k<<<1, 64>>>(p);
}
