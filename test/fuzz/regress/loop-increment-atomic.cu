// Class 9: an effect in a uniform loop's increment:
// `for (int j = 0; j < m; j++, atomicAdd(cnt, 1u))`.
// Breaks in: both modes (the loop is uniform and emitted once, but its
// increment performs an atomic per logical thread: it must run K times
// per iteration, once per live copy; emitted once, `cnt` ends K times too
// small).
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
__global__ void loop_inc_atomic_kernel(const int *in, int n, int m,
                                       unsigned *cnt, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int j = 0; j < m; j++, atomicAdd(cnt, 1u))
    s += (i < n) ? in[i] * j : j;
  out[i] = s;
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 20, m = 5;
  int *h_in = new int[n], *h_out = new int[blocks * threads];
  unsigned h_cnt;
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  int *d_in, *d_out;
  unsigned *d_cnt;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, blocks * threads * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_cnt, sizeof(unsigned)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, blocks * threads * sizeof(int)), "memset");
  CK(cudaMemset(d_cnt, 0xAB, sizeof(unsigned)), "memset");
  loop_inc_atomic_kernel<<<blocks, threads>>>(d_in, n, m, d_cnt, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, blocks * threads * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(&h_cnt, d_cnt, sizeof(unsigned), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, blocks * threads * sizeof(int));
  print_hash("cnt", &h_cnt, sizeof(unsigned));
  return 0;
}
