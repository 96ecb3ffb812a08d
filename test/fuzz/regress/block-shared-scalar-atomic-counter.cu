// Class 1 (second shape): a block-private counter in a __shared__ scalar,
// zeroed by thread 0 with a uniform `=`, then incremented by atomicAdd under
// a data-dependent condition, then read by thread 0.
// Breaks in: block mode (the scalar must be replicated per logical block:
// the atomicAdd is a write made per copy; left single, the K merged blocks
// count into one scalar and every copy reports the merged count).
// Thread mode: one block stays one block; must be correct.
// Expected: accept (both modes).
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

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void count_kernel(const int *in, int n, unsigned *blockcount,
                             unsigned *total) {
  __shared__ unsigned cnt;
  if (threadIdx.x == 0)
    cnt = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (in[i] & 3) == 1)
    atomicAdd(&cnt, 1u);
  __syncthreads();
  if (threadIdx.x == 0) {
    blockcount[blockIdx.x] = cnt;
    atomicAdd(total, cnt);
  }
}

int main() {
  const int threads = 192, blocks = 13;
  const int n = blocks * threads - 50;
  int *h_in = new int[n];
  for (int i = 0; i < n; i++)
    h_in[i] = (int)lcg();
  unsigned h_bc[blocks], h_total;
  int *d_in;
  unsigned *d_bc, *d_total;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_bc, sizeof h_bc), "malloc");
  CK(cudaMalloc(&d_total, sizeof h_total), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_bc, 0xAB, sizeof h_bc), "memset");
  CK(cudaMemset(d_total, 0xAB, sizeof h_total), "memset");
  count_kernel<<<blocks, threads>>>(d_in, n, d_bc, d_total);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_bc, d_bc, sizeof h_bc, cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(&h_total, d_total, sizeof h_total, cudaMemcpyDeviceToHost), "d2h");
  print_hash("blockcount", h_bc, sizeof h_bc);
  print_hash("total", &h_total, sizeof h_total);
  return 0;
}
