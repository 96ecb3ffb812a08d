// Class 15: `__device__` global variables accumulated with atomics, one of
// them by thread 0 of each block in control that is uniform in block mode
// (`if (threadIdx.x == 0) atomicAdd(&g_blocks, 1u)`).
// Breaks in: both modes (an atomic is an effect, never an idempotent
// uniform store: it must run once per live copy; emitted once, the
// counters come out K times too small).
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

__device__ unsigned g_count;
__device__ unsigned long long g_sum;
__device__ unsigned g_blocks;
__device__ int g_max;

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void globals_kernel(const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    atomicAdd(&g_blocks, 1u);
  if (i < n) {
    atomicAdd(&g_count, 1u);
    atomicAdd(&g_sum, (unsigned long long)(in[i] + 1000));
    atomicMax(&g_max, in[i] * 7 + i);
  }
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 37;
  int *h_in = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  int *d_in;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  unsigned char poison[8];
  memset(poison, 0xAB, sizeof poison);
  CK(cudaMemcpyToSymbol(g_count, poison, sizeof(unsigned)), "poison");
  CK(cudaMemcpyToSymbol(g_sum, poison, sizeof(unsigned long long)), "poison");
  CK(cudaMemcpyToSymbol(g_blocks, poison, sizeof(unsigned)), "poison");
  CK(cudaMemcpyToSymbol(g_max, poison, sizeof(int)), "poison");
  globals_kernel<<<blocks, threads>>>(d_in, n);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  unsigned h_count, h_blocks;
  unsigned long long h_sum;
  int h_max;
  CK(cudaMemcpyFromSymbol(&h_count, g_count, sizeof h_count), "d2h");
  CK(cudaMemcpyFromSymbol(&h_sum, g_sum, sizeof h_sum), "d2h");
  CK(cudaMemcpyFromSymbol(&h_blocks, g_blocks, sizeof h_blocks), "d2h");
  CK(cudaMemcpyFromSymbol(&h_max, g_max, sizeof h_max), "d2h");
  print_hash("g_count", &h_count, sizeof h_count);
  print_hash("g_sum", &h_sum, sizeof h_sum);
  print_hash("g_blocks", &h_blocks, sizeof h_blocks);
  print_hash("g_max", &h_max, sizeof h_max);
  return 0;
}
