// Threads that communicate through shared memory with no barrier between a
// write and another thread's read are warp-level code, found by structure
// (legality.c check_shared_communication), through a volatile view of a
// shared array, or through a helper's pointer-to-volatile parameter: thread
// mode refuses them with the consecutive mapping, and keeps them
// with the stride mapping along x, where each launch checks that blockDim.x / K
// is whole warps (coarsen_block_warps).  A tree reduction, whose reads
// follow a barrier, needs nothing.  Block mode gives each copy its replica.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse -factor 2 -mode thread -mapping consecutive %t.in.cu -o %t.c.cu 2>&1 | FileCheck %s
// RUN: test ! -e %t.c.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.s.cu
// RUN: FileCheck %s --check-prefix=STRIDE < %t.s.cu
// RUN: %nvcc-check %t.s.cu
// RUN: %tfuse -factor 4 %t.in.cu -o %t.b.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.b.cu
// RUN: %nvcc-check %t.b.cu

// CHECK-DAG: :[[# @LINE + 20]]:21: error: volatile pointer 'v' into __shared__ memory suggests warp-synchronous code, which thread mode would split; thread mode keeps warps whole only with -mapping stride along x alone
// CHECK-DAG: :[[# @LINE + 34]]:27: error: 's' is read here where another thread may have written it ({{.*}}.in.cu:[[# @LINE + 33]]) with no barrier between: threads that communicate through shared memory without __syncthreads() are warp-synchronous code, which thread mode would split; thread mode keeps warps whole only with -mapping stride along x alone
// CHECK-DAG: :[[# @LINE + 49]]:29: error: __shared__ 's' passed to 'warp_reduce' as a pointer to volatile suggests warp-synchronous code, which thread mode would split; thread mode keeps warps whole only with -mapping stride along x alone
// CHECK-NOT: tree
// STRIDE-DAG: view_reduce<<<n, ::tfuse_rt::coarsen_block_warps(256, 0, 2u,
// STRIDE-DAG: scan_plain<<<n, ::tfuse_rt::coarsen_block_warps(64, 0, 2u,
// STRIDE-DAG: helper_reduce<<<n, ::tfuse_rt::coarsen_block_warps(128, 0, 2u,
// STRIDE-DAG: tree<<<n, ::tfuse_rt::coarsen_block(256, 0, 2u,
// BLOCK-LABEL: __global__ void view_reduce(
// BLOCK:      volatile float *v_0 = sdata_0;
// BLOCK:      volatile float *v_3 = sdata_3;
// BLOCK:      v_0[tid] += v_0[tid + 1];
// BLOCK-NEXT: if (__tf_ok_1) v_1[tid] += v_1[tid + 1];
#pragma tfuse coarsen
__global__ void view_reduce(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = sdata;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A scan of one warp on a plain shared array: no `volatile` anywhere.
#pragma tfuse coarsen
__global__ void scan_plain(const int *in, int *out) {
  __shared__ int s[32];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 32 + tid];
  if (tid >= 1) s[tid] += s[tid - 1];
  if (tid >= 2) s[tid] += s[tid - 2];
  out[blockIdx.x * 32 + tid] = s[tid];
}

__device__ void warp_reduce(volatile int *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 1];
}

#pragma tfuse coarsen
__global__ void helper_reduce(const int *in, int *out) {
  __shared__ int s[128];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 128 + tid];
  __syncthreads();
  if (tid < 32) warp_reduce(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Every read of another thread's element follows a barrier.
#pragma tfuse coarsen
__global__ void tree(const int *in, int *out) {
  __shared__ int s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st)
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

void run(const float *inf, float *outf, const int *in, int *out, int n) {
  view_reduce<<<n, 256>>>(inf, outf);
  scan_plain<<<n, 64>>>(in, out);
  helper_reduce<<<n, 128>>>(in, out);
  tree<<<n, 256>>>(in, out);
}

