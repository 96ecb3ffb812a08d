// Block mode gives each logical block a share of the launch's dynamic
// shared memory: a constant size whose K shares pass 227 KB (the most any
// GPU gives a block) could never launch, so the kernel is refused at the
// launch, with the sizes; -skip-unsafe leaves it as it was.  K = 2 fits.
// REQUIRES: nvcc
// RUN: not %tfuse -factor 4 -mode block %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor 4 -mode block -skip-unsafe %s -o %t.skip.cu 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: %tfuse -factor 2 -mode block %s -o %t.k2.cu
// RUN: FileCheck %s --check-prefix=K2 < %t.k2.cu
// RUN: %nvcc-check %t.k2.cu

#define SHMEM_BYTES (64 * 1024)

#pragma tfuse coarsen
__global__ void tile(const float *in, float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

void run(const float *in, float *out, int blocks) {
  cudaFuncSetAttribute(tile, cudaFuncAttributeMaxDynamicSharedMemorySize, SHMEM_BYTES);
// CHECK: dyn-shared-over-device-limit.cu:[[@LINE+3]]:3: error: launch of 'tile' asks for 65536 bytes of dynamic shared memory per block; block mode gives each of its 4 logical blocks a share, 262144 bytes in all, over the 227 KB (232,448 bytes) the largest GPUs give a block; use a smaller -factor
// SKIP: warning: kernel 'tile' left unchanged: launch of 'tile' asks for 65536 bytes
// K2: tile<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256, 2u * (size_t)__tf_dsmem>>>
  tile<<<blocks, 256, SHMEM_BYTES>>>(in, out);
}
