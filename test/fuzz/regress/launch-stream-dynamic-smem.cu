// Class 14 (fourth shape): a launch with a dynamic shared-memory size and a
// stream (`k<<<g, b, smem, stream>>>`); the kernel keeps per-block data in
// `extern __shared__` memory.
// Breaks in: block mode (each logical block needs its own part of the
// dynamic shared memory: the launch would have to pass K * smem and copy r
// use offset r * smem/K, or the kernel be refused) and thread mode (smem
// must stay the logical block's size, the block shrink to B / K).
// Expected: may-refuse (block mode may refuse `extern __shared__`; an
// accepted rewrite must be correct; thread mode should accept).
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

// tfuse-expect: may-refuse
#pragma tfuse coarsen
__global__ void dyn_kernel(const int *in, int n, int *out) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  dyn[t] = (i < n) ? in[i] : t;
  __syncthreads();
  out[i] = dyn[(t + 1) % blockDim.x] * 2 - dyn[t];
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 37;
  int *h_in = new int[n], *h_out = new int[blocks * threads];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  int *d_in, *d_out;
  cudaStream_t s;
  CK(cudaStreamCreate(&s), "stream");
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, blocks * threads * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, blocks * threads * sizeof(int)), "memset");
  dyn_kernel<<<blocks, threads, threads * sizeof(int), s>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaStreamSynchronize(s), "sync");
  CK(cudaMemcpy(h_out, d_out, blocks * threads * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, blocks * threads * sizeof(int));
  return 0;
}
