// Thread mode: a helper that calls __syncthreads() and writes nothing is
// accepted.  Called with uniform arguments it is emitted once; called per
// copy, each copy's call waits at the barrier after every copy's earlier
// statements, and writes nothing the other copies could miss.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      sh[(threadIdx.x)] = in[i_0];
// CHECK-NEXT: sh[(threadIdx.x + 1 * blockDim.x)] = in[i_1];
// CHECK-NEXT: sync();
// CHECK-NEXT: float z = peek(sh);
// CHECK-NEXT: float q_0 = peek(&sh[((threadIdx.x) + 1) % 256]);
// CHECK-NEXT: float q_1 = peek(&sh[((threadIdx.x + 1 * blockDim.x) + 1) % 256]);

__device__ void sync() { __syncthreads(); }
__device__ float peek(const float *p) { __syncthreads(); return p[0]; }

#pragma tfuse coarsen
__global__ void k(float *out, const float *in) {
  __shared__ float sh[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sh[threadIdx.x] = in[i];
  sync();
  float z = peek(sh);
  float q = peek(&sh[(threadIdx.x + 1) % 256]);
  out[i] = z + q;
}

void run(float *out, const float *in, int n) { k<<<n / 256, 256>>>(out, in); }
