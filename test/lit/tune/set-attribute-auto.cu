// -factor auto: the program's cudaFuncSetAttribute(k, attr, v) is passed
// to every variant, the original first, each set only after the one before
// succeeded, and the first error returned (the original's, so the program
// takes the branch it takes without tfuse), in a lambda called on the spot
// wherever the call stands.  MaxDynamicSharedMemorySize is, for a
// block-mode variant that divides its extern __shared__ array, K shares of
// v; for every variant it is clamped to what the device allows beside the
// variant's static bytes (::tfuse_rt::dyn_shared_clamp): a variant whose
// launch would need more is skipped by the runtime, so the call must not
// fail for it.  Other attributes go to each variant as written.  Kept
// refused: an attribute a block-mode candidate cannot take (a cluster's
// extent must divide the grid, which block mode rescales), and the
// runtime's functions that need one kernel (tune/refused-launches.cu).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -tune-space "block.x:2 thread.x:2" -kernel k -factor auto %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: sed 's#^  // cluster: #  #' %t.in.cu > %t.cluster.cu
// RUN: not %tfuse -tune-space "block.x:2 thread.x:2" -kernel k -factor auto %t.cluster.cu -o %t.cluster.out.cu 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: %tfuse -tune-space "thread.x:2" -kernel k -factor auto %t.cluster.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK:      auto status = [&]() -> cudaError_t { const auto __tf_v = (smem); cudaError_t __tf_e = cudaSuccess; __tf_e = cudaFuncSetAttribute(k__tf_k1, cudaFuncAttributeMaxDynamicSharedMemorySize, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k__tf_bx2, cudaFuncAttributeMaxDynamicSharedMemorySize, ::tfuse_rt::dyn_shared_clamp(k__tf_bx2, 2u * (size_t)::tfuse_rt::dyn_share(__tf_v))); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k__tf_tx2, cudaFuncAttributeMaxDynamicSharedMemorySize, ::tfuse_rt::dyn_shared_clamp(k__tf_tx2, __tf_v)); return __tf_e; }();
// CHECK-NEXT: [&]() -> cudaError_t { const auto __tf_v = (50); cudaError_t __tf_e = cudaSuccess; __tf_e = cudaFuncSetAttribute(k__tf_k1, cudaFuncAttributePreferredSharedMemoryCarveout, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k__tf_bx2, cudaFuncAttributePreferredSharedMemoryCarveout, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k__tf_tx2, cudaFuncAttributePreferredSharedMemoryCarveout, __tf_v); return __tf_e; }();
// CLUSTER: set-attribute-auto.cu.tmp.cluster.cu:[[#CL:]]:24: error: -factor auto cannot route cudaFuncSetAttribute of 'k' to its candidate block.x:2: it sets RequiredClusterWidth: a cluster's extent must divide the grid, which block mode rescales; leave block mode out of -tune-space or coarsen it with a fixed -factor
// THREAD: [&]() -> cudaError_t { const auto __tf_v = (2); cudaError_t __tf_e = cudaSuccess; __tf_e = cudaFuncSetAttribute(k__tf_k1, cudaFuncAttributeRequiredClusterWidth, __tf_v); if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k__tf_tx2, cudaFuncAttributeRequiredClusterWidth, __tf_v); return __tf_e; }();

#include <cuda_runtime.h>

__global__ void k(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

cudaError_t run(const float *in, float *out, int n, size_t smem) {
  auto status = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
  // cluster: cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterWidth, 2);
  if (status == cudaSuccess)
    k<<<(n + 255) / 256, 256, smem>>>(in, out, n);
  return status;
}
