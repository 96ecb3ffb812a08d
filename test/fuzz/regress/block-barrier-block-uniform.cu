// Block mode accepts barriers under control that depends on blockIdx only
// (the outside corpus): a block-level branch with a barrier in each arm, and a loop
// whose trip count depends on the block with barriers inside. Every thread
// of the merged block evaluates the same per-copy conditions, so all reach
// each barrier together; the copies' statements are predicated around it.
// The kernel reads neighbours' shared elements after each barrier, so a
// barrier run by only part of the block, or a copy reading another copy's
// replica, changes the hash.
// Expected: accept in both modes (thread mode merges threads of one block,
// which share blockIdx: the control is uniform there).
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
__global__ void block_uniform_barrier_kernel(const int *in, int n, int nfull, int *out) {
  __shared__ int sh[96];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (blockIdx.x < nfull) {
    sh[t] = in[i] * 3 + 1;
    __syncthreads();
    out[i] = sh[(t + 1) % 96] - sh[t];
  } else {
    sh[t] = i < n ? in[i] : -7;
    __syncthreads();
    if (i < n)
      out[i] = sh[95 - t] * 2;
  }
  for (int r = 0; r < (int)(blockIdx.x % 4); r++) {
    __syncthreads();
    sh[t] += r + (int)blockIdx.x;
    __syncthreads();
    if (i < n)
      out[i] += sh[(t + 5 * r + 1) % 96];
  }
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
  block_uniform_barrier_kernel<<<blocks, threads>>>(d_in, n, 23, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
