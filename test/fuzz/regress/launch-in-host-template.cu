// Class 14: launches inside a host function template whose block size is a
// template parameter (`template <int B> void run(...) { k<<<g, B>>>(...); }`),
// instantiated for two block sizes.
// Breaks in: both modes if the launch in the template is not rewritten
// (block mode: the kernel gains the grid-extent parameter and a stale
// launch would not compile or would run the wrong grid; thread mode: the
// block must shrink to B / K, a stale launch runs K times too many
// threads).
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
__global__ void scale_kernel(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 3 + (int)blockIdx.x * 1000 + (int)blockDim.x;
}

template <int B>
void run(const int *in, int n, int *out) {
  scale_kernel<<<(n + B - 1) / B, B>>>(in, n, out);
}

int main() {
  const int n = 37 * 96 - 37;  // 37 blocks of 96, 19 blocks of 192
  int *h_in = new int[n], *h_out = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  int *d_in, *d_a, *d_b;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_a, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_b, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_a, 0xAB, n * sizeof(int)), "memset");
  CK(cudaMemset(d_b, 0xAB, n * sizeof(int)), "memset");
  run<96>(d_in, n, d_a);
  CK(cudaGetLastError(), "launch 96");
  run<192>(d_in, n, d_b);
  CK(cudaGetLastError(), "launch 192");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_a, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out96", h_out, n * sizeof(int));
  CK(cudaMemcpy(h_out, d_b, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out192", h_out, n * sizeof(int));
  return 0;
}
