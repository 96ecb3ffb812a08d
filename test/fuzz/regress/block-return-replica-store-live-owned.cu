// Class 13: dead copies after a thread-dependent `return` storing (value
// guarded) into a __shared__ element that a live thread owns.
// Legal and race-free original: all threads store sh[t], one barrier,
// then threads with a < 0 return. A survivor whose left neighbour
// returned takes over the neighbour's slot (S1: sh[lt] = a * 3), every
// survivor stores its own slot (S2: sh[t] = a + 7) and reads the taken-over
// slot back (S3). After the barrier, slot x is written only by x (if alive)
// or by x+1 (if x returned): never both, and read only by its writer.
// Breaks in: block mode. S2 has the same index in every copy, so it is
// emitted as `sh_r[t] = live_r ? (a_r + 7) : 0;`: the returned thread's
// copy stores 0 into the slot its live neighbour took over (S1 ran just
// before, in the same warp), and S3 reads 0 instead of a * 3.
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
__global__ void return_takeover_kernel(const int *in, int n, int *out) {
  __shared__ int sh[96];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int a = (i < n) ? in[i] * 2 + 1 : 1;
  sh[t] = a;
  __syncthreads();
  int lt = (t + blockDim.x - 1) % blockDim.x;
  int left = sh[lt];
  if (a < 0)
    return;
  if (left < 0)
    sh[lt] = a * 3;
  sh[t] = a + 7;
  out[i] = (left < 0) ? sh[lt] : -left;
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
  return_takeover_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
