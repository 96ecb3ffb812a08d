// Class: a __device__ helper holding __syncthreads(), called by the kernel
// in uniform control with a per-copy shared array (a block-wide neighbour
// exchange), plus a barrier-only wrapper.
// Breaks in: block mode if the copies' calls shared one array or a thread
// skipped a copy's barrier; each copy's call is a whole logical block's
// exchange, one after the other.  Thread mode: the helper writes shared
// memory, so a copy's call would pass its barrier before the later
// copies' writes: it must be refused there.
// Expected: refuse-thread (accept in block mode).
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

__device__ void sync_all() { __syncthreads(); }
__device__ int exchange(int *sh, int v) {
  sh[threadIdx.x] = v;
  __syncthreads();
  int r = sh[(threadIdx.x + 1) % blockDim.x];
  __syncthreads();
  return r;
}

// tfuse-expect: refuse-thread
#pragma tfuse coarsen
__global__ void barrier_helper_kernel(const int *in, int n, int *out) {
  __shared__ int sh[192];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (i < n) ? in[i] : 5;
  sync_all();
  int w = exchange(sh, v);
  int z = exchange(sh, w + 1);
  out[i] = w * 1000 + z;
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 37;
  int *h_in = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  const size_t out_bytes = (size_t)blocks * threads * sizeof(int);
  int *h_out = new int[(size_t)blocks * threads];
  int *d_in, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
  barrier_helper_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
