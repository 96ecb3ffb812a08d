// Block mode replicates an `extern __shared__` array through dynamic shared
// memory (the outside corpus): K shares of the launch's size, rounded up to 16 bytes,
// copy r's array pointing to share r. The launch's size (96 ints + 4 bytes)
// is not a multiple of 16, the grid (37) is not divisible by K, and every
// thread reads other threads' elements after the barrier, so a share that
// overlaps another or a copy reading another copy's share changes the hash.
// Expected: accept (both modes; thread mode keeps one array).
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
__global__ void extern_shared_kernel(const int *in, int n, int *out) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  dyn[t] = (i < n ? in[i] : 5) * 2 + (int)blockIdx.x;
  if (t == 0)
    dyn[blockDim.x] = (int)blockIdx.x * 7;
  __syncthreads();
  int v = dyn[(t + 1) % blockDim.x] - dyn[blockDim.x - 1 - t] + dyn[blockDim.x];
  __syncthreads();
  dyn[t] = v;
  __syncthreads();
  out[i] = dyn[(t + 3) % blockDim.x] ^ v;
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
  extern_shared_kernel<<<blocks, threads, threads * sizeof(int) + 4>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
