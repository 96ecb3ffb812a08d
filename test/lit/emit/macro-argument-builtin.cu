// A builtin written in a macro's argument (`UMAD(blockIdx.x, blockDim.x,
// threadIdx.x)`, as CUDA's histogram sample does) is, for libclang, located
// in the macro: tfuse expands such a use inside a coarsened kernel and
// coarsens the expansion.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK: for (unsigned pos_0 = (((((blockIdx.x * 2))) * ((blockDim.x))) + (threadIdx.x)); pos_0 < n; pos_0 += ((blockDim.x) * (__tf_grid_x))) {
// CHECK: if (__tf_ok_1) for (unsigned pos_1 = (((((blockIdx.x * 2 + 1))) * ((blockDim.x))) + (threadIdx.x)); pos_1 < n; pos_1 += ((blockDim.x) * (__tf_grid_x))) {
// THREAD: for (unsigned pos_0 = ((((blockIdx.x)) * (((blockDim.x * 2)))) + ((threadIdx.x))); pos_0 < n; pos_0 += (((blockDim.x * 2)) * (gridDim.x))) {

#define UMUL(a, b) ((a) * (b))
#define UMAD(a, b, c) (UMUL((a), (b)) + (c))

#pragma tfuse coarsen
__global__ void k(const unsigned *in, unsigned *out, unsigned n) {
  for (unsigned pos = UMAD(blockIdx.x, blockDim.x, threadIdx.x); pos < n; pos += UMUL(blockDim.x, gridDim.x)) {
    atomicAdd(&out[in[pos] % 256], 1u);
  }
}

int main() {
  k<<<10, 128>>>(nullptr, nullptr, 5);
  return 0;
}
