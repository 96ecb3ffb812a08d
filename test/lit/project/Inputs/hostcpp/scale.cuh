// A header that both nvcc (scale.cu) and the host compiler (main.cpp)
// include: the kernel and its launcher are CUDA-only.
#pragma once
#include <cuda_runtime.h>

void scale_on_device(float *p, int n, int block);

#ifdef __CUDACC__
#pragma tfuse coarsen
__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}

inline void launch_scale(float *p, int n, int block) { scale<<<(n + block - 1) / block, block>>>(p, n); }
#endif
