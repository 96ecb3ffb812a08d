// Class: legacy warp-synchronous code on shared memory: one thread reads
// what another wrote with no barrier between, relying on the lanes of a
// warp running in step: the unrolled last warp of a reduction on a
// `volatile __shared__` array (`vs[tid] += vs[tid + 16]` ...), the same
// through a `volatile unsigned *v = sdata;` view of a plain shared array,
// and an inclusive scan of the first warp through `v[tid - d]`.
// Breaks in: thread mode with -mapping consecutive (a statement written once
// per copy lets copy 1 read `v[tid - 1]` that copy 0 of the same thread
// already updated) and with blockDim.x / K below 32 (a logical warp spans
// several copies); the view form was accepted there.
// Now: warp-level code (passes/legality.c check_shared_communication, the
// volatile array, the volatile view): thread mode needs the stride mapping
// along x alone and whole warps (checked at each launch: blockDim.x / K a
// multiple of 32), else it is refused. Block mode: each copy's statements
// use its own replica, the physical warp's lanes are the logical warp's.
// Expected: refuse-thread@yz,refuse-thread.consecutive (thread x stride:
// accepted; K = 2, 4, 8 keep whole warps with 256 threads).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(call, where)                                                   \
  do {                                                                    \
    cudaError_t e_ = (call);                                              \
    if (e_ != cudaSuccess) {                                              \
      printf("cuda-error %s %s\n", where, cudaGetErrorString(e_));        \
      return 3;                                                           \
    }                                                                     \
  } while (0)

static uint64_t fnv1a(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}

static void print_hash(const char *label, const void *p, size_t n) {
  printf("hash %s %016llx\n", label, (unsigned long long)fnv1a(p, n));
}

static uint32_t lcg_state = 0x2545F491u;
static uint32_t lcg() {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}



// tfuse-expect: refuse-thread@yz,refuse-thread.consecutive
#pragma tfuse coarsen
__global__ void ws_volatile_reduce(const unsigned *in, unsigned n, unsigned *out) {
  volatile __shared__ unsigned vs[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  vs[tid] = i < n ? in[i] : 7u;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      vs[tid] += vs[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
    vs[tid] += vs[tid + 8];
    vs[tid] += vs[tid + 4];
    vs[tid] += vs[tid + 2];
    vs[tid] += vs[tid + 1];
  }
  if (tid < 32)
    out[blockIdx.x * 32 + tid] = vs[tid];
}

// tfuse-expect: refuse-thread@yz,refuse-thread.consecutive
#pragma tfuse coarsen
__global__ void ws_view_reduce(const unsigned *in, unsigned n, unsigned *out) {
  __shared__ unsigned sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] * 3u : 1u;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile unsigned *v = sdata;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  __syncthreads();
  if (tid < 32)
    out[blockIdx.x * 32 + tid] = sdata[tid];
}

// tfuse-expect: refuse-thread@yz,refuse-thread.consecutive
#pragma tfuse coarsen
__global__ void ws_scan(const unsigned *in, unsigned n, unsigned *out) {
  __shared__ unsigned sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 5u;
  __syncthreads();
  if (tid < 32) {
    volatile unsigned *v = sdata;
    if (tid >= 1) v[tid] += v[tid - 1];
    if (tid >= 2) v[tid] += v[tid - 2];
    if (tid >= 4) v[tid] += v[tid - 4];
    if (tid >= 8) v[tid] += v[tid - 8];
    if (tid >= 16) v[tid] += v[tid - 16];
  }
  __syncthreads();
  out[i] = sdata[tid];
}

int main() {
  const int threads = 256, blocks = 37;
  const unsigned n = blocks * threads - 41;
  unsigned *h_in = new unsigned[n];
  for (unsigned j = 0; j < n; j++)
    h_in[j] = lcg() % 100000u;
  const size_t red_bytes = (size_t)blocks * 32 * sizeof(unsigned), scan_bytes = (size_t)blocks * threads * sizeof(unsigned);
  unsigned *h_out = new unsigned[(size_t)blocks * threads];
  unsigned *d_in, *d_r1, *d_r2, *d_s;
  CK(cudaMalloc(&d_in, n * sizeof(unsigned)), "malloc");
  CK(cudaMalloc(&d_r1, red_bytes), "malloc");
  CK(cudaMalloc(&d_r2, red_bytes), "malloc");
  CK(cudaMalloc(&d_s, scan_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(unsigned), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_r1, 0xAB, red_bytes), "memset");
  CK(cudaMemset(d_r2, 0xAB, red_bytes), "memset");
  CK(cudaMemset(d_s, 0xAB, scan_bytes), "memset");
  ws_volatile_reduce<<<blocks, threads>>>(d_in, n, d_r1);
  CK(cudaGetLastError(), "launch");
  ws_view_reduce<<<blocks, threads>>>(d_in, n, d_r2);
  CK(cudaGetLastError(), "launch");
  ws_scan<<<blocks, threads>>>(d_in, n, d_s);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_r1, red_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("ws_volatile_reduce_out", h_out, red_bytes);
  CK(cudaMemcpy(h_out, d_r2, red_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("ws_view_reduce_out", h_out, red_bytes);
  CK(cudaMemcpy(h_out, d_s, scan_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("ws_scan_out", h_out, scan_bytes);
  return 0;
}
