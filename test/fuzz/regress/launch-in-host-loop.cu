// Class 14 (third shape): a kernel launched in a host loop as the loop's
// unbraced body, and as the unbraced then-branch of an if/else.
// Breaks in: both modes if a launch in these positions is not rewritten,
// or is rewritten into text that no longer parses there (e.g. a
// `{ ... };` block before `else`).
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
__global__ void step_kernel(const int *a, int *b, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = b[i] * 3 + a[(i + it) % n] + (int)blockIdx.x;
}

int main() {
  const int threads = 192, blocks = 13;
  const int n = blocks * threads - 100;
  int *h_a = new int[n], *h_b = new int[n];
  for (int j = 0; j < n; j++)
    h_a[j] = (int)(lcg() % 2001u) - 1000;
  int *d_a, *d_b;
  CK(cudaMalloc(&d_a, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_b, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_a, h_a, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_b, 0xAB, n * sizeof(int)), "memset");
  for (int it = 0; it < 3; it++)
    step_kernel<<<blocks, threads>>>(d_a, d_b, n, it);
  CK(cudaGetLastError(), "launch loop");
  if (n > 0)
    step_kernel<<<blocks, threads>>>(d_a, d_b, n, 5);
  else
    cudaMemset(d_b, 0, n * sizeof(int));
  CK(cudaGetLastError(), "launch if");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_b, d_b, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("b", h_b, n * sizeof(int));
  return 0;
}
