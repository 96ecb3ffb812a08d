// Class 15: `gridDim` / `blockDim` in arithmetic: a grid-stride loop
// (`j += gridDim.x * blockDim.x`, with n > 3 * the thread count), a
// last-block test (`blockIdx.x == gridDim.x - 1`) and the extents written
// out.
// Breaks in: block mode (gridDim.x must be the original grid, not the
// coarsened one, also when the grid is not a multiple of K) and thread
// mode (blockDim.x must be the logical block size).
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
__global__ void dims_kernel(const int *in, int n, int *out, int *meta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int total = gridDim.x * blockDim.x;
  int acc = 0;
  for (int j = i; j < n; j += total)
    acc = acc * 3 + in[j];
  out[i] = acc;
  meta[i] = (blockIdx.x == gridDim.x - 1) * 1000000 + gridDim.x * 1000 +
            blockDim.x + (threadIdx.x == blockDim.x - 1) * 7;
}

int main() {
  const int threads = 96, blocks = 37;
  const int total = blocks * threads;
  const int n = total * 3 + 55;
  int *h_in = new int[n], *h_out = new int[total], *h_meta = new int[total];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  int *d_in, *d_out, *d_meta;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, total * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_meta, total * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, total * sizeof(int)), "memset");
  CK(cudaMemset(d_meta, 0xAB, total * sizeof(int)), "memset");
  dims_kernel<<<blocks, threads>>>(d_in, n, d_out, d_meta);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, total * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_meta, d_meta, total * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, total * sizeof(int));
  print_hash("meta", h_meta, total * sizeof(int));
  return 0;
}
