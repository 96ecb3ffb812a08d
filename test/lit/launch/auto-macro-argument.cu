// -factor auto routes a launch written in a macro's argument (cuda-samples'
// `checkKernelErrors((k<<<g, b>>>(...)))`) or inside a larger expression as
// fixed factors do: the dispatch block becomes a lambda called on the spot,
// an expression where the launch stood, with the arguments' own text (in a
// macro's argument the nodes' extents are the whole invocation). A macro
// that expands its argument twice gets one rewrite. A hint
// (cudaFuncSetCacheConfig) is given to every variant.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -candidates 2,4 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: int main() {
// CHECK:      checkCudaErrors([&]() -> cudaError_t { const auto __tf_v = (cudaFuncCachePreferL1); cudaError_t __tf_e = cudaSuccess; __tf_e = cudaFuncSetCacheConfig(k__tf_k1, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetCacheConfig(k__tf_bx2, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetCacheConfig(k__tf_bx4, __tf_v); return __tf_e; }());
// CHECK-NEXT: checkKernelErrors(([&] { const dim3 __tf_grid = (n / 256); const dim3 __tf_block = (256);
// CHECK:      default: k__tf_k1<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(p, __tf_a1); break;
// CHECK-NEXT: case 1: k__tf_bx2<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, __tf_a1); break;
// CHECK:      if (__tf_tune.tuning()) { __tf_tune.track(p, "out"); __tf_tune.tune(__tf_launch); }
// CHECK-NEXT: __tf_launch(__tf_tune.choice());
// CHECK-NEXT: }()));
// CHECK-NEXT: TWICE([&] { const dim3 __tf_grid = (n / 256);
// CHECK:      }());
// CHECK-NEXT: int r = ([&] { const dim3 __tf_grid = (4);
// CHECK:      }(), 0);
// CHECK-NOT:  k<<<

#include <cuda_runtime.h>
#include <cstdio>
#define checkCudaErrors(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) std::printf("error %d\n", (int)e_); } while (0)
#define checkKernelErrors(expr) do { expr; cudaError_t e_ = cudaGetLastError(); if (e_ != cudaSuccess) std::printf("error %d\n", (int)e_); } while (0)
#define TWICE(...) do { __VA_ARGS__; __VA_ARGS__; } while (0)

#pragma tfuse coarsen factor(auto)
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

int next(int *c) { return (*c)++; }

int main() {
  float *p = nullptr;
  int n = 1 << 20, c = 0;
  checkCudaErrors(cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1));
  checkKernelErrors((k<<<n / 256, 256>>>(p, next(&c) + n)));
  TWICE(k<<<n / 256, 256>>>(p, n));
  int r = (k<<<4, 64>>>(p, 256), 0);
  return r;
}
