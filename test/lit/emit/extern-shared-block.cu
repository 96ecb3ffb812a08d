// Block mode replicates an `extern __shared__` array through the dynamic
// shared memory: the merged block asks for K shares of the launch's size
// (rounded up to 16 bytes, so each share starts aligned), the kernel takes
// the share as the parameter __tf_dsmem after the grid extent, and copy r's
// array points to share r. Above 48 KB the launch opts in first. The same
// holds for an array declared at file scope (its copies are made at entry),
// for a launch with a stream, and for one with no size (0 bytes).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 4 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=AGAIN < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 4 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK-LABEL: __global__ void reduce(unsigned int __tf_grid_x, unsigned int __tf_dsmem, const float *in, float *out, int n) {
// CHECK:      extern __shared__ float sdata[];
// CHECK-NEXT: decltype(&sdata[0]) const sdata_0 = (decltype(&sdata[0]))((char *)sdata + 0 * (size_t)__tf_dsmem);
// CHECK-NEXT: decltype(&sdata[0]) const sdata_1 = (decltype(&sdata[0]))((char *)sdata + 1 * (size_t)__tf_dsmem);
// CHECK:      sdata_0[tid] = (i_0 < n) ? in[i_0] : 0;
// CHECK:      sdata_3[tid] += sdata_3[tid + s];
// CHECK-LABEL: __global__ void file_scope(unsigned int __tf_grid_x, unsigned int __tf_dsmem, float *out) {
// CHECK:      decltype(&dyn[0]) const dyn_0 = (decltype(&dyn[0]))((char *)dyn + 0 * (size_t)__tf_dsmem);
// CHECK:      dyn_0[threadIdx.x] = (blockIdx.x * 4);
// CHECK:      { const dim3 __tf_grid = (blocks); static ::tfuse_rt::Fallback __tf_fb("reduce", "{{.*}}.cu:{{[0-9]+}}"); const size_t __tf_smem = (threads * sizeof(float)); const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); if (::tfuse_rt::serves_threads(reduce, threads, __tf_fb) && ::tfuse_rt::serves_shared(reduce, 4u * (size_t)__tf_dsmem, __tf_fb)) { ::tfuse_rt::dyn_shared_opt_in(reduce, 4u * (size_t)__tf_dsmem); reduce<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), threads, 4u * (size_t)__tf_dsmem>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_dsmem, in, out, n); } else reduce__tf_orig<<<__tf_grid, threads, __tf_smem>>>(in, out, n); }
// CHECK:      const size_t __tf_smem = (48 * 1024); const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); if (::tfuse_rt::serves_shared(file_scope, 4u * (size_t)__tf_dsmem, __tf_fb)) { {{.*}}file_scope<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 128, 4u * (size_t)__tf_dsmem, stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_dsmem, out); } else file_scope__tf_orig<<<__tf_grid, 128, __tf_smem, stream>>>(out); }
// CHECK:      const size_t __tf_smem = (0); const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); {{.*}}file_scope<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 128, 4u * (size_t)__tf_dsmem>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_dsmem, out); } else file_scope__tf_orig<<<__tf_grid, 128>>>(out); }

// Thread mode keeps one array for the block: nothing changes but the block.
// THREAD: extern __shared__ float sdata[];
// THREAD-NOT: __tf_dsmem

extern __shared__ float dyn[];

#pragma tfuse coarsen
__global__ void reduce(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? in[i] : 0;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A second kernel declaring an extern array of the same name: one entity to
// clang, declared in this kernel's own body.
// AGAIN-LABEL: __global__ void reduce_again(
// AGAIN:      extern __shared__ float sdata[];
// AGAIN-NEXT: decltype(&sdata[0]) const sdata_0 =
// AGAIN-NOT:  const sdata_0 =
// AGAIN:      }
#pragma tfuse coarsen
__global__ void reduce_again(float *out) {
  extern __shared__ float sdata[];
  sdata[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = sdata[blockDim.x - 1 - threadIdx.x];
}

#pragma tfuse coarsen
__global__ void file_scope(float *out) {
  dyn[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

int main() {
  int n = 1 << 20, threads = 256, blocks = (n + threads - 1) / threads;
  float *in = nullptr, *out = nullptr;
  cudaStream_t stream = 0;
  reduce<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);
  file_scope<<<blocks, 128, 48 * 1024, stream>>>(out);
  file_scope<<<blocks, 128>>>(out);
  reduce_again<<<blocks, 128, 128 * sizeof(float)>>>(out);
  return 0;
}
