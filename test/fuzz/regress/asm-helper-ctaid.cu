// Class: a helper reads the block's coordinates through inline PTX:
// `asm("mov.u32 %0, %%ctaid.x;" : "=r"(r))`, and %nctaid.x.
// Breaks in: block mode when the helper is called as written: every copy
// reads the physical block index, and the call looked like any effect.
// tfuse does not rewrite assembly per copy, so block mode along x refuses
// it, naming the helper and the register; block mode along y or z leaves
// %ctaid.x and %nctaid.x as they are, and thread mode keeps %ctaid and
// %nctaid: both coarsen it.
// Expected: refuse-block@x (accept in thread mode and along y and z).
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

__device__ unsigned block_id() {
  unsigned r;
  asm("mov.u32 %0, %%ctaid.x;" : "=r"(r));
  return r;
}
__device__ unsigned nblocks() {
  unsigned r;
  asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(r));
  return r;
}

// tfuse-expect: refuse-block@x
#pragma tfuse coarsen
__global__ void asm_ctaid_kernel(const int *in, int n, int *out) {
  int i = (int)(block_id() * blockDim.x + threadIdx.x);
  int v = (int)nblocks() * 7 + (int)block_id();
  if (i < n)
    out[i] = in[i] * 3 + v;
  else
    out[i] = v;
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 37;
  int *h_in = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  const size_t out_bytes = (size_t)blocks * threads * sizeof(int);
  int *h_out = new int[(size_t)blocks * threads];
  int *d_in, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
  asm_ctaid_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
