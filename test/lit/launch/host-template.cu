// A launch inside a host function template names the kernel through a
// dependent name (`k<T><<<...>>>`, or `k<<<...>>>` with deduced arguments):
// clang leaves the callee unresolved in the template, but every candidate
// it found is the kernel's template, so the launch is rewritten like any
// other. (With an explicit specialization of the kernel around, the
// instantiation might pick it instead: such a launch stays refused.)
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -kernel k %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread -kernel k %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK: { const dim3 __tf_grid = (grid); k<T><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), d, n); }
// CHECK: { const dim3 __tf_grid = (grid); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), d, n); }
// THREAD: k<T><<<grid, ::tfuse_rt::coarsen_block(block, 0, 2u, "k",
// THREAD: k<<<grid, ::tfuse_rt::coarsen_block(block, 0, 2u, "k",

template <typename T>
__global__ void k(T *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] += 1;
}

template <typename T>
void run(T *d, int n) {
  dim3 grid((n + 255) / 256), block(256);
  k<T><<<grid, block>>>(d, n);
  k<<<grid, block>>>(d, n);
}

int main() {
  run<float>(nullptr, 5);
  run<int>(nullptr, 5);
  return 0;
}
