// Class 11 (second shape): threads of one block hand values to each other
// through global flags: thread t waits (bounded spin) for thread
// t + blockDim.x/2 (if t is in the lower half) and for thread t + 1 (if t
// is even), then publishes its own value. Every wait points to a higher
// thread, so the original terminates (sm_70+ independent thread
// scheduling lets a spinning lane wait for another lane of its warp).
// The spin gives up after 1<<20 tries and records it in `fail`.
// Breaks in: thread mode. With the stride mapping copy 0 of a physical
// thread is logical t and copy K/2 is t + blockDim.x/2; with the
// consecutive mapping copies 0 and 1 are t and t + 1: either way copy 0
// waits for a copy of the same physical thread that runs after it, and
// times out. Block mode keeps each block's threads as they are.
// Expected: refuse-thread (a spin-wait on a flag another copy sets later).
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

// tfuse-expect: refuse
#pragma tfuse coarsen
__global__ void pair_kernel(const int *in, int *flags, int *vals, int *fail,
                            int *out) {
  int t = threadIdx.x;
  int half = blockDim.x / 2;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  int f = 0;
  if (t < half) {
    int tries = 0;
    while (atomicAdd(&flags[i + half], 0) == 0 && tries < (1 << 20))
      tries++;
    f += tries >= (1 << 20);
    __threadfence();
    v += atomicAdd(&vals[i + half], 0) % 1009;
  }
  if ((t & 1) == 0) {
    int tries = 0;
    while (atomicAdd(&flags[i + 1], 0) == 0 && tries < (1 << 20))
      tries++;
    f += 2 * (tries >= (1 << 20));
    __threadfence();
    v += atomicAdd(&vals[i + 1], 0) % 1013;
  }
  vals[i] = v;
  __threadfence();
  atomicExch(&flags[i], 1);
  out[i] = v;
  fail[i] = f;
}

int main() {
  const int threads = 96, blocks = 13;
  const int n = blocks * threads;
  int *h_in = new int[n], *h_out = new int[n], *h_vals = new int[n], *h_fail = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 100000u);
  int *d_in, *d_flags, *d_vals, *d_fail, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_flags, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_vals, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_fail, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_flags, 0, n * sizeof(int)), "memset");
  CK(cudaMemset(d_vals, 0xAB, n * sizeof(int)), "memset");
  CK(cudaMemset(d_fail, 0xAB, n * sizeof(int)), "memset");
  CK(cudaMemset(d_out, 0xAB, n * sizeof(int)), "memset");
  pair_kernel<<<blocks, threads>>>(d_in, d_flags, d_vals, d_fail, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_vals, d_vals, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_fail, d_fail, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, n * sizeof(int));
  print_hash("vals", h_vals, n * sizeof(int));
  print_hash("fail", h_fail, n * sizeof(int));
  return 0;
}
