// A __device__ function that reads an index coarsening changes (threadIdx.d
// or blockDim.d in thread mode, blockIdx.d or gridDim.d in block mode),
// itself or through a helper it calls, is cloned per kernel with the copy
// as its first parameter; each copy calls the clone with its own number.
// Helpers that read only unchanged builtins are called as they are.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 4 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -mapping consecutive %t.in.cu -o %t.cons.cu
// RUN: FileCheck --check-prefix=CONS %s < %t.cons.cu
// RUN: %nvcc-check %t.cons.cu

// THREAD:      /* tfuse: 'tid' for one copy of 'k' (the copy is __tf_r) */
// THREAD-NEXT: __device__ int tid__tf_k(unsigned int __tf_r) { return (threadIdx.x + __tf_r * blockDim.x); }
// THREAD:      /* tfuse: 'gid' for one copy of 'k' (the copy is __tf_r) */
// THREAD-NEXT: __device__ int gid__tf_k(unsigned int __tf_r, int base) { return base + blockIdx.x * (blockDim.x * 2) + tid__tf_k(__tf_r); }
// THREAD:      template <typename T> __device__ T load__tf_k(unsigned int __tf_r, const T *p) { return p[blockIdx.x * (blockDim.x * 2) + (threadIdx.x + __tf_r * blockDim.x)]; }
// THREAD-NOT:  nblocks__tf_k
// THREAD-LABEL: __global__ void k(
// THREAD:      int i_0 = gid__tf_k(0, 0);
// THREAD-NEXT: int i_1 = gid__tf_k(1, 0);
// THREAD:      if (__tf_p1_0) out[i_0] = load__tf_k<float>(0, in) + nblocks();
// THREAD-NEXT: if (__tf_p1_1) out[i_1] = load__tf_k<float>(1, in) + nblocks();

// BLOCK-NOT:   tid__tf_k
// BLOCK:       __device__ int gid__tf_k(unsigned int __tf_r, unsigned int __tf_grid_x, int base) { return base + (blockIdx.x * 4 + __tf_r) * blockDim.x + tid(); }
// BLOCK:       template <typename T> __device__ T load__tf_k(unsigned int __tf_r, unsigned int __tf_grid_x, const T *p) { return p[(blockIdx.x * 4 + __tf_r) * blockDim.x + threadIdx.x]; }
// BLOCK:       __device__ int nblocks__tf_k(unsigned int __tf_r, unsigned int __tf_grid_x) { return __tf_grid_x; }
// BLOCK-LABEL: __global__ void k(
// BLOCK:       int i_0 = gid__tf_k(0, __tf_grid_x, 0);
// BLOCK-NEXT:  int i_1 = TFUSE_GUARD(__tf_ok_1, gid__tf_k(1, __tf_grid_x, 0));
// BLOCK:       if (__tf_p1_3) out[i_3] = load__tf_k<float>(3, __tf_grid_x, in) + nblocks__tf_k(3, __tf_grid_x);

// CONS:        __device__ int tid__tf_k(unsigned int __tf_r) { return (threadIdx.x * 2 + __tf_r); }

__device__ int tid() { return threadIdx.x; }
__device__ int gid(int base) { return base + blockIdx.x * blockDim.x + tid(); }
template <typename T> __device__ T load(const T *p) { return p[blockIdx.x * blockDim.x + threadIdx.x]; }
__device__ int nblocks(void) { return gridDim.x; }

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, int n) {
  int i = gid(0);
  if (i < n)
    out[i] = load<float>(in) + nblocks();
}

void run(float *out, const float *in, int n) { k<<<(n + 127) / 128, 128>>>(out, in, n); }
