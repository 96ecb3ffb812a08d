// An explicit specialization of a template kernel is a kernel of its own,
// with its own body: coarsening the template and the specialization
// (-kernel names both) rewrites each body once (this was "overlapping
// rewrites"), and the launches of each are rewritten for their own kernel.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -kernel f %t.in.cu -o %t.both.cu
// RUN: FileCheck %s --check-prefix=BOTH < %t.both.cu
// RUN: %nvcc-check %t.both.cu
// RUN: %tfuse -factor 2 -mode thread -kernel f %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// BOTH: template <int B> __global__ void f(unsigned int __tf_grid_x, float *c) {
// BOTH: template <> __global__ void f<64>(unsigned int __tf_grid_x, float *c) {
// BOTH: f<32><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128>>>
// BOTH: f<64><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128>>>

template <int B> __global__ void f(float *c) { c[blockIdx.x * B + threadIdx.x] = B; }
template <> __global__ void f<64>(float *c) { c[blockIdx.x * 64 + threadIdx.x] = 1; }

int main() {
  float *p = nullptr;
  f<32><<<10, 128>>>(p);
  f<64><<<10, 128>>>(p);
  return 0;
}
