// Class 7: `cta.sync()` (a barrier) inside a loop whose trip count is read
// per thread from memory (varying to tfuse; the host makes it equal across
// each block, so the original is legal).
// Breaks in: both modes. A varying loop is replicated whole per copy, so
// in thread mode copy 0 runs all its rounds (barriers included) before
// copy 1 has stored anything: the neighbour read after the first barrier
// sees stale shared data. In block mode the rule is the same as for
// `__syncthreads()` under varying control.
// Expected: refuse (both modes: a barrier under copy-dependent control).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
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

// (refused along x, where rounds_in[i] differs between the copies; along y or z the
// condition is the same for every copy, and the kernel is coarsened.)
// tfuse-expect: may-refuse
#pragma tfuse coarsen
__global__ void cg_sync_loop_kernel(const int *in, const int *rounds_in,
                                    int *out) {
  __shared__ int sh[192];
  cg::thread_block cta = cg::this_thread_block();
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  int rounds = rounds_in[i];
  for (int r = 0; r < rounds; r++) {
    sh[t] = v;
    cta.sync();
    v += sh[(t + 1) % blockDim.x] & 255;
    cta.sync();
  }
  out[i] = v;
}

int main() {
  const int threads = 192, blocks = 13;
  const int n = blocks * threads;
  int *h_in = new int[n], *h_rounds = new int[n], *h_out = new int[n];
  for (int j = 0; j < n; j++) {
    h_in[j] = (int)(lcg() % 100000u);
    h_rounds[j] = 1 + (j / threads) % 3;
  }
  int *d_in, *d_rounds, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_rounds, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemcpy(d_rounds, h_rounds, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, n * sizeof(int)), "memset");
  cg_sync_loop_kernel<<<blocks, threads>>>(d_in, d_rounds, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, n * sizeof(int));
  return 0;
}
