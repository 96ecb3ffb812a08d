// Class: block-private histogram in a __shared__ array, written only by
// a uniform `= 0` and by atomicAdd at a data-dependent index.
// Breaks in: block mode (the atomicAdd is a write with a varying index, so
// each logical block needs its own replica of `sh`; if tfuse counts only
// plain `=` stores, `sh` stays single, the K merged blocks' counts pile
// into one array and each copy then adds the merged total to `hist` and
// writes it to its own `blockhist` row).
// Thread mode: one block stays one block; the atomics are per-copy
// statements and must be correct.
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

static uint32_t lcg_state = 0x1234567u;
static uint32_t lcg() {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}

constexpr int BINS = 40;

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void hist_kernel(const unsigned *data, int n, unsigned *hist,
                            unsigned *blockhist) {
  __shared__ unsigned sh[BINS];
  for (int j = threadIdx.x; j < BINS; j += blockDim.x)
    sh[j] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&sh[data[i] % BINS], 1u);
  __syncthreads();
  for (int j = threadIdx.x; j < BINS; j += blockDim.x) {
    atomicAdd(&hist[j], sh[j]);
    blockhist[blockIdx.x * BINS + j] = sh[j];
  }
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 29;
  unsigned *h_data = new unsigned[n];
  for (int i = 0; i < n; i++)
    h_data[i] = lcg() % 1000u;
  unsigned h_hist[BINS];
  unsigned *h_bh = new unsigned[blocks * BINS];
  unsigned *d_data, *d_hist, *d_bh;
  CK(cudaMalloc(&d_data, n * sizeof(unsigned)), "malloc");
  CK(cudaMalloc(&d_hist, sizeof h_hist), "malloc");
  CK(cudaMalloc(&d_bh, blocks * BINS * sizeof(unsigned)), "malloc");
  CK(cudaMemcpy(d_data, h_data, n * sizeof(unsigned), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_bh, 0xAB, blocks * BINS * sizeof(unsigned)), "memset");
  CK(cudaMemset(d_hist, 0xAB, sizeof h_hist), "memset");
  hist_kernel<<<blocks, threads>>>(d_data, n, d_hist, d_bh);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_hist, d_hist, sizeof h_hist, cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_bh, d_bh, blocks * BINS * sizeof(unsigned), cudaMemcpyDeviceToHost), "d2h");
  printf("hash hist %016llx\n", (unsigned long long)fnv1a(h_hist, sizeof h_hist));
  printf("hash blockhist %016llx\n", (unsigned long long)fnv1a(h_bh, blocks * BINS * sizeof(unsigned)));
  return 0;
}
