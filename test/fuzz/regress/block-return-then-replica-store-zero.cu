// Class 10: after a data-dependent (varying) `return`, a surviving thread
// reads a __shared__ element whose owner returned, expecting the value the
// owner stored before the return; the returned thread's copy must not
// store to it afterwards.
// Legal and race-free original: every thread stores sh[t] and passes a
// barrier; every thread reads its left neighbour's element and passes a
// second barrier (without it, the first lane of a warp read the element
// that the last lane of the previous warp overwrites below: a race that
// made a 2x2 block variant's output differ run to run, run 7); then
// threads with a < 0 return; survivors overwrite their own element, and
// read their left neighbour's element again only when that neighbour
// returned (left < 0 <=> the neighbour's a < 0), so nobody writes it after
// the barrier. There is no barrier after the return (a barrier after a
// partial return would not be legal CUDA C++); the survivors' read needs
// none, since the element was last written before the barriers.
// Breaks in: block mode. `sh` is replicated (sh_r) and `sh[t] = a + 5000`
// has the same index in every copy, so tfuse's "value-guarded replica
// store" emits `sh_r[t] = live_r ? (a_r + 5000) : 0;`: the returned
// logical thread's copy writes 0 over its pre-return value, and the
// neighbour (same warp, next instruction) reads 0 instead of the negative
// value. The guard `copy r is live` is not "copy 0 stores the same
// element" once liveness is per thread rather than per logical block.
// Expected: accept (block mode; thread mode with the stride mapping along
// x). The survivors' last read of a neighbour's element, after a barrier
// and with no barrier between it and the neighbours' own stores, is
// communication through shared memory without a barrier, which thread
// mode keeps only with whole warps: refused with the consecutive mapping
// and along y or z.
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

// tfuse-expect: refuse-thread@yz,refuse-thread.consecutive
#pragma tfuse coarsen
__global__ void return_replica_kernel(const int *in, int n, int *out) {
  __shared__ int sh[96];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int a = (i < n) ? in[i] * 2 + 1 : 1;
  sh[t] = a;
  __syncthreads();
  int lt = (t + blockDim.x - 1) % blockDim.x;
  int left = sh[lt];
  __syncthreads();
  if (a < 0)
    return;
  sh[t] = a + 5000;
  if (left < 0)
    out[i] = sh[lt];
  else
    out[i] = -left;
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 37;
  const int nin = n * 1;
  int *h_in = new int[nin];
  for (int j = 0; j < nin; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  const size_t out_bytes = (size_t)blocks * threads * 1 * sizeof(int);
  int *h_out = new int[(size_t)blocks * threads * 1];
  int *d_in, *d_out;
  CK(cudaMalloc(&d_in, nin * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, nin * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
  return_replica_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
