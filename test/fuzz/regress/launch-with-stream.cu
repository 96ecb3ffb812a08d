// Class 14 (fifth shape): a launch with `dim3` temporaries, a zero
// dynamic shared-memory size and a stream; the kernel uses static
// __shared__ memory.
// Breaks in: both modes if the 4-argument launch configuration is not
// rewritten (block mode: grid and extent parameter; thread mode: block).
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
__global__ void stream_kernel(const int *in, int n, int *out) {
  __shared__ int sh[192];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  sh[t] = (i < n) ? in[i] : t;
  __syncthreads();
  out[i] = sh[blockDim.x - 1 - t] + 3 * sh[t];
}

int main() {
  const int threads = 192, blocks = 13;
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
  stream_kernel<<<dim3(blocks), dim3(threads), 0, s>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaStreamSynchronize(s), "sync");
  CK(cudaMemcpy(h_out, d_out, blocks * threads * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, blocks * threads * sizeof(int));
  return 0;
}
