// Block mode: a shared array written only through an address handed to an
// atomic (a block-private histogram) belongs to each logical block, so it
// is replicated, and each copy counts into its own replica; the flush,
// whose index and value are uniform, still runs once per copy, reading
// that copy's replica.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void hist(
// CHECK:      __shared__ unsigned int sh_0[16];
// CHECK-NEXT: __shared__ unsigned int sh_1[16];
// CHECK:      atomicAdd(&sh_0[data[i_0] % 16], 1u);
// CHECK-NEXT: if (__tf_ok_1) atomicAdd(&sh_1[data[i_1] % 16], 1u);
// CHECK:      atomicAdd(&h[threadIdx.x], sh_0[threadIdx.x]);
// CHECK-NEXT: if (__tf_ok_1) atomicAdd(&h[threadIdx.x], sh_1[threadIdx.x]);

#pragma tfuse coarsen
__global__ void hist(unsigned *h, const unsigned *data, int n) {
  __shared__ unsigned int sh[16];
  if (threadIdx.x < 16)
    sh[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&sh[data[i] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&h[threadIdx.x], sh[threadIdx.x]);
}

void run(unsigned *h, const unsigned *d, int n) { hist<<<n / 64, 64>>>(h, d, n); }
