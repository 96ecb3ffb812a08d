// A local whose type is a scalar through a typedef (`uint`, `real`) has no
// destructor, so a destructor of the project that reads the block index
// (here ~Pool's) cannot run at its scope's end: the kernel is coarsened.
// A local of a class type there stays refused (refuse/implicit-calls-read-index.cu).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

typedef unsigned int uint;
typedef float real;

struct Pool {
  int *p;
  __device__ ~Pool() { p[blockIdx.x] = 0; }
};

// CHECK: uint tid_1 = (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x;
// CHECK: real v_1 = TFUSE_GUARD(__tf_ok_1, in[tid_1] * 2.0f);
#pragma tfuse coarsen
__global__ void k(const float *in, float *out) {
  uint tid = blockIdx.x * blockDim.x + threadIdx.x;
  real v = in[tid] * 2.0f;
  out[tid] = v;
}

void run(const float *in, float *out, int n) { k<<<n, 128>>>(in, out); }
