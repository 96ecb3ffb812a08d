// Class 14 (second shape): a template kernel (pragma before its
// `template <...>` line) with a __shared__ array sized by the template
// parameter, launched from a host function template for two sizes.
// Breaks in: block mode (the shared array must be replicated in the
// template, the launch in the host template rewritten) and thread mode
// (the launch's block B must become B / K; B inside the kernel is the
// logical block size and must stay).
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

// tfuse-expect: may-refuse
#pragma tfuse coarsen
template <int B>
__global__ void rot_kernel(const int *in, int n, int *out) {
  __shared__ int sh[B];
  int t = threadIdx.x;
  int i = blockIdx.x * B + t;
  sh[t] = (i < n) ? in[i] : -t;
  __syncthreads();
  if (i < n)
    out[i] = sh[(t + 1) % B] - sh[t];
}

template <int B>
void run(const int *in, int n, int *out) {
  rot_kernel<B><<<(n + B - 1) / B, B>>>(in, n, out);
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
