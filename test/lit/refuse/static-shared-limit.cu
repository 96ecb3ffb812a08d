// Block mode replicates a shared array once per logical block: coarsened
// by 16, a kernel with 4 KB of replicated shared memory would declare 64 KB,
// over the 48 KB a block may declare statically, and ptxas would reject
// the output.  tfuse refuses it at the largest replicated array, with the
// numbers; at K = 8 (32 KB) it is accepted.  Thread mode does not
// replicate shared memory.
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 16 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor 8 %s -o %t.k8.cu
// RUN: %nvcc-check %t.k8.cu
// RUN: %tfuse -factor 16 -mode thread %s -o %t.t16.cu

// CHECK: static-shared-limit.cu:[[@LINE+3]]:{{[0-9]+}}: error: coarsened by 16, 'k' would declare 65536 bytes of static __shared__ memory (4096 bytes replicated per logical block, 'a' the largest), over the 49152 bytes a block may declare statically; use a smaller -factor
#pragma tfuse coarsen
__global__ void k(float *out, const float *in) {
  __shared__ float a[32][32];
  a[threadIdx.y][threadIdx.x] = in[blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x] = a[threadIdx.x][threadIdx.y];
}

void run(float *o, const float *in, int n) { k<<<n, dim3(32, 32)>>>(o, in); }
