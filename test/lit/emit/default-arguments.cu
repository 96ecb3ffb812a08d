// A default argument is evaluated at the call, in the caller's thread: a
// call that leaves out defaults reading an index coarsening changes spells
// them out, rendered for each copy (in the kernel with the copy's number,
// in a clone with __tf_r).  The call is then varying, and a helper making
// such a call reads the coordinates (it is cloned and called per copy along
// every dimension).  Defaults that read only what coarsening keeps are left
// out as written.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2,2 -dim x,y -mode thread %t.in.cu -o %t.xy.cu
// RUN: FileCheck --check-prefix=XY %s < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu

__device__ int gid(unsigned b = blockIdx.x, unsigned d = blockDim.x, unsigned t = threadIdx.x) { return b * d + t; }
__device__ int lane(int t = threadIdx.x) { return t & 31; }
__device__ int proto(int s, unsigned b = blockIdx.x * 2u + 1u);
__device__ int proto(int s, unsigned b) { return s + (int)b; }
__device__ int via() { return gid() + proto(1); }
struct S {
  int o;
  __device__ int at(unsigned b = blockIdx.x) const { return o + (int)b; }
};

#pragma tfuse coarsen
__global__ void k(const int *in, int n, int *out) {
  S s{3};
  int i = gid();
  int j = via() + s.at() + lane();
  if (i < n)
    out[i] = in[i] * 3 + j + gid(7, 2);
}

int main() {
  int *a = 0, *b = 0;
  k<<<13, dim3(96, 2)>>>(a, 100, b);
}

// BLOCK:       __device__ int via__tf_k(unsigned int __tf_r, unsigned int __tf_grid_x) { return gid((blockIdx.x * 2 + __tf_r), blockDim.x, threadIdx.x) + proto(1, (blockIdx.x * 2 + __tf_r) * 2u + 1u); }
// BLOCK-LABEL: __global__ void k(
// BLOCK:       int i_0 = gid((blockIdx.x * 2), blockDim.x, threadIdx.x);
// BLOCK-NEXT:  int i_1 = gid((blockIdx.x * 2 + 1), blockDim.x, threadIdx.x);
// BLOCK:       int j_0 = via__tf_k(0, __tf_grid_x) + s.at((blockIdx.x * 2)) + lane();
// BLOCK-NEXT:  int j_1 = TFUSE_GUARD(__tf_ok_1, via__tf_k(1, __tf_grid_x) + s.at((blockIdx.x * 2 + 1)) + lane());
// BLOCK:       if (__tf_p1_1) out[i_1] = in[i_1] * 3 + j_1 + gid(7, 2);

// THREAD:      __device__ int via__tf_k(unsigned int __tf_r) { return gid(blockIdx.x, (blockDim.x * 2), (threadIdx.x + __tf_r * blockDim.x)) + proto(1); }
// THREAD-LABEL: __global__ void k(
// THREAD:      int i_0 = gid(blockIdx.x, (blockDim.x * 2), (threadIdx.x));
// THREAD-NEXT: int i_1 = gid(blockIdx.x, (blockDim.x * 2), (threadIdx.x + 1 * blockDim.x));
// THREAD:      int j_1 = via__tf_k(1) + s.at() + lane((threadIdx.x + 1 * blockDim.x));
// THREAD:      if (__tf_p1_1) out[i_1] = in[i_1] * 3 + j_1 + gid(7, 2, (threadIdx.x + 1 * blockDim.x));

// XY:      __device__ int via__tf_k(unsigned int __tf_rx, unsigned int __tf_ry) { return gid(blockIdx.x, (blockDim.x * 2), (threadIdx.x + __tf_rx * blockDim.x)) + proto(1); }
// XY-LABEL: __global__ void k(
// XY:      int j_x1y1 = via__tf_k(1, 1) + s.at() + lane((threadIdx.x + 1 * blockDim.x));
