// Class 11: an inter-block hand-off through a global flag: thread 0 of
// block b waits (bounded spin) until block b+1 has published its value,
// then publishes its own, so the chain runs from the last block down.
// Legal original: 13 blocks of 96 threads are all co-resident on any
// sm_90 part, every block waits only on a higher block, the last waits on
// none. The spin gives up after 1<<20 tries and records it in `fail`.
// Breaks in: block mode. Logical blocks 2p and 2p+1 become copies 0 and 1
// of one physical thread; copy 0's wait (a varying loop, replicated whole)
// runs before copy 1 has published, so it can never succeed: it times out
// (fail = 1, wrong values), or without the bound it would hang.
// Thread mode leaves blocks and the hand-off as they are.
// Expected: refuse-block (a spin-wait on a flag another copy sets later).
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
__global__ void chain_kernel(const int *in, int *flags, int *data, int *fail,
                             int *out) {
  __shared__ int got;
  int t = threadIdx.x;
  int b = blockIdx.x;
  int i = b * blockDim.x + t;
  if (t == 0) {
    int g = 0;
    int f = 0;
    if (b + 1 < (int)gridDim.x) {
      int tries = 0;
      while (atomicAdd(&flags[b + 1], 0) == 0 && tries < (1 << 20))
        tries++;
      f = tries >= (1 << 20);
      __threadfence();
      g = atomicAdd(&data[b + 1], 0);
    }
    fail[b] = f;
    got = g;
    data[b] = (g % 100003) * 7 + in[i] + b;
    __threadfence();
    atomicExch(&flags[b], 1);
  }
  __syncthreads();
  out[i] = in[i] + got;
}

int main() {
  const int threads = 96, blocks = 13;
  const int n = blocks * threads;
  int *h_in = new int[n], *h_out = new int[n], h_data[blocks], h_fail[blocks];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 100000u);
  int *d_in, *d_flags, *d_data, *d_fail, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_flags, blocks * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_data, blocks * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_fail, blocks * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, n * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_flags, 0, blocks * sizeof(int)), "memset");
  CK(cudaMemset(d_data, 0xAB, blocks * sizeof(int)), "memset");
  CK(cudaMemset(d_fail, 0xAB, blocks * sizeof(int)), "memset");
  CK(cudaMemset(d_out, 0xAB, n * sizeof(int)), "memset");
  chain_kernel<<<blocks, threads>>>(d_in, d_flags, d_data, d_fail, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_data, d_data, sizeof h_data, cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_fail, d_fail, sizeof h_fail, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, n * sizeof(int));
  print_hash("data", h_data, sizeof h_data);
  print_hash("fail", h_fail, sizeof h_fail);
  return 0;
}
