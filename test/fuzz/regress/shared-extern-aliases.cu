// Every `extern __shared__` array of a kernel and of the functions it calls
// lies at one address, the start of the block's dynamic shared memory.
// Block mode used to replicate each name on its own: a name only read (`b`
// below, or a view returned by a function) kept copy 0's share, so copy r
// read what logical block 0 of its group wrote.  Now every extern name is
// replicated once one is, each copy's at the same share; a function naming
// its own extern array while the kernel replicates them is refused in block
// mode (thread mode keeps the one buffer).  Grids of 13 and 37 blocks, 96
// threads, every thread reading other threads' elements after the barrier.
// Expected: ext_two_names, ext_view: accept; ext_helper: refuse-block@x (the kernel reads blockIdx.x only).
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

static uint32_t lcg_state = 0x5EED1234u;
static uint32_t lcg() {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void ext_two_names(const unsigned *in, int n, unsigned *out) {
  extern __shared__ unsigned a[];
  extern __shared__ int b[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  a[t] = (i < n ? in[i] : 5u) * 3u + blockIdx.x;
  __syncthreads();
  out[i] = (unsigned)b[blockDim.x - 1 - t] ^ (unsigned)b[(t + 5) % blockDim.x];
}

__device__ unsigned *dyn_base() {
  extern __shared__ unsigned dbase[];
  return dbase;
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void ext_view(const unsigned *in, int n, unsigned *out) {
  unsigned *f = dyn_base();
  extern __shared__ unsigned own[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  own[t] = (i < n ? in[i] : 7u) + 11u * blockIdx.x;
  __syncthreads();
  out[i] = f[(t + 1) % blockDim.x] - f[blockDim.x - 1 - t];
}

__device__ unsigned get_dyn(int k) {
  extern __shared__ unsigned h[];
  return h[k];
}

// tfuse-expect: refuse-block@x
#pragma tfuse coarsen
__global__ void ext_helper(const unsigned *in, int n, unsigned *out) {
  extern __shared__ unsigned s[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = (i < n ? in[i] : 9u) * 5u + blockIdx.x;
  __syncthreads();
  out[i] = get_dyn(blockDim.x - 1 - t) + get_dyn((t + 2) % blockDim.x);
}

int main() {
  const int threads = 96, blocks[2] = {13, 37};
  const int nmax = 37 * threads;
  unsigned *h_in = new unsigned[nmax];
  for (int j = 0; j < nmax; j++)
    h_in[j] = lcg() % 100000u;
  unsigned *h_out = new unsigned[nmax];
  const size_t out_bytes = (size_t)nmax * sizeof(unsigned);
  unsigned *d_in, *d_out;
  CK(cudaMalloc(&d_in, nmax * sizeof(unsigned)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, nmax * sizeof(unsigned), cudaMemcpyHostToDevice), "h2d");
  const char *labels[3][2] = {{"ext_two_names_out13", "ext_two_names_out37"},
                              {"ext_view_out13", "ext_view_out37"},
                              {"ext_helper_out13", "ext_helper_out37"}};
  for (int k = 0; k < 3; k++)
    for (int g = 0; g < 2; g++) {
      int n = blocks[g] * threads - 17;
      CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
      if (k == 0)
        ext_two_names<<<blocks[g], threads, threads * sizeof(unsigned)>>>(d_in, n, d_out);
      else if (k == 1)
        ext_view<<<blocks[g], threads, threads * sizeof(unsigned) + 4>>>(d_in, n, d_out);
      else
        ext_helper<<<blocks[g], threads, threads * sizeof(unsigned)>>>(d_in, n, d_out);
      CK(cudaGetLastError(), "launch");
      CK(cudaDeviceSynchronize(), "sync");
      CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
      print_hash(labels[k][g], h_out, (size_t)blocks[g] * threads * sizeof(unsigned));
    }
  return 0;
}
