// Class 7: `cg::sync(cta)` (a barrier, free-function form) inside a varying
// `if` whose condition is read per thread from memory (the host makes it
// equal across each block, so the original is legal).
// Breaks in: both modes by the legality rule (a barrier under
// copy-dependent control). A predicated emission happens to run the
// barrier once for all copies, but a collective hidden behind `cg::sync`
// must be recognised as a barrier at all.
// Expected: refuse (both modes).
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

// (refused along x, where flags[i] differs between the copies; along y or z the
// condition is the same for every copy, and the kernel is coarsened.)
// tfuse-expect: may-refuse
#pragma tfuse coarsen
__global__ void cg_sync_if_kernel(const int *in, const int *flags, int *out) {
  __shared__ int sh[96];
  cg::thread_block cta = cg::this_thread_block();
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  if (flags[i]) {
    sh[t] = v;
    cg::sync(cta);
    v = sh[(t + 1) % blockDim.x] - v;
  }
  out[i] = v;
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads;
  int *h_in = new int[n], *h_flags = new int[n], *h_out = new int[n];
  for (int j = 0; j < n; j++) {
    h_in[j] = (int)(lcg() % 100000u);
    h_flags[j] = ((j / threads) % 3) != 1;
  }
  int *d_in, *d_flags, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_flags, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemcpy(d_flags, h_flags, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, n * sizeof(int)), "memset");
  cg_sync_if_kernel<<<blocks, threads>>>(d_in, d_flags, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, n * sizeof(int));
  return 0;
}
