// Class 13 (second shape): dead copies after a thread-dependent `return`
// storing (value guarded) out of bounds of a __shared__ array.
// Legal original: sh has 65 elements (slot 0 is a halo), the block 96
// threads; each block has a limit lim in [33, 64] and threads with
// t >= lim return before touching sh, so sh[t + 1] is only stored with
// t + 1 <= 64. tab (per-block data, read by everyone) is filled before the
// one barrier; nothing after the return needs a barrier (each thread reads
// back its own sh[t + 1]). The index t + 1 is not a plain thread
// coordinate, so register promotion does not apply.
// Breaks in: block mode. `sh[t + 1] = tab[t % 64] + 1` has the same index
// in every copy, so it becomes `sh_r[t + 1] = live_r ? (...) : 0;`,
// executed also by copies whose thread returned, i.e. with t up to 95:
// 0 is stored up to 31 elements past the end of sh_r (into another
// replica, tab_r, or past the block's shared memory).
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
__global__ void return_oob_kernel(const int *in, const int *lims, int *out) {
  __shared__ int sh[65];
  __shared__ int tab[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (t < 64)
    tab[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  int lim = lims[blockIdx.x];
  if (t >= lim)
    return;
  sh[t + 1] = tab[t % 64] + 1;
  out[i] = sh[t + 1] * 2 + tab[(t * 7 + 3) % 64];
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads;
  int *h_in = new int[blocks * 64], *h_lims = new int[blocks], *h_out = new int[n];
  for (int j = 0; j < blocks * 64; j++)
    h_in[j] = (int)(lcg() % 100000u) + 1;
  for (int b = 0; b < blocks; b++)
    h_lims[b] = 33 + (int)(lcg() % 32u);
  int *d_in, *d_lims, *d_out;
  CK(cudaMalloc(&d_in, blocks * 64 * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_lims, blocks * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, blocks * 64 * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemcpy(d_lims, h_lims, blocks * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, n * sizeof(int)), "memset");
  return_oob_kernel<<<blocks, threads>>>(d_in, d_lims, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, n * sizeof(int));
  return 0;
}
