// Class: static __shared__ arrays declared in __device__ helpers and member
// functions, not in the kernel: a helper returning its array (a view the
// kernel uses across barriers), a helper writing its own thread's slot,
// and a member function exchanging through its array between barriers.
// Breaks in: block mode when the array is left as written: every copy
// (logical block) of the merged block writes the one array, then reads
// the other copies' values.  tfuse renames only the kernel's own shared
// variables, so block mode refuses a helper's array that the coarsened
// kernel writes per copy, naming the function that declares it: a call
// whose effect is a shared store is emitted per copy along any dimension,
// a store through the view only where its value differs between the
// copies (along x, where it reads blockIdx.x).  Thread mode keeps one
// array per block, as written, except for the member function: its
// barrier between per-copy calls is refused there.
// Expected: view_kernel: refuse-block@x (accept in thread mode and in
// block mode along y and z); own_kernel: refuse-block; member_kernel:
// refuse.
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

__device__ unsigned *scratch() {
  __shared__ unsigned buf[192];
  return buf;
}

__device__ unsigned own_slot(int t, unsigned v) {
  __shared__ unsigned slot[192];
  slot[t] = v * 3u + 1u;
  return slot[t] ^ (v >> 2);
}

struct Exchange {
  unsigned key;
  __device__ unsigned swap(int t, int nt, unsigned v) {
    __shared__ unsigned buf[192];
    buf[t] = v ^ key;
    __syncthreads();
    unsigned w = buf[(t + 1) % nt];
    __syncthreads();
    return w;
  }
};

// tfuse-expect: refuse-block@x
#pragma tfuse coarsen
__global__ void view_kernel(const unsigned *in, int n, unsigned *out) {
  int t = threadIdx.x, nt = blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : 7u;
  unsigned *tile = scratch();
  for (int r = 0; r < 3; ++r) {
    tile[t] = v;
    __syncthreads();
    v = v * 5u + tile[(t + 1) % nt];
    __syncthreads();
  }
  out[i] = v;
}

// tfuse-expect: refuse-block
#pragma tfuse coarsen
__global__ void own_kernel(const unsigned *in, int n, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : 9u;
  out[i] = own_slot(threadIdx.x, v) + 1u;
}

// tfuse-expect: refuse
#pragma tfuse coarsen
__global__ void member_kernel(const unsigned *in, int n, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : 11u;
  Exchange ex{0x5bd1e995u};
  out[i] = v + ex.swap(threadIdx.x, blockDim.x, v * 3u);
}

int main() {
  const int threads = 192, blocks = 37;
  const int n = blocks * threads - 37;
  unsigned *h_in = new unsigned[n];
  for (int j = 0; j < n; j++)
    h_in[j] = lcg();
  const size_t out_bytes = (size_t)blocks * threads * sizeof(unsigned);
  unsigned *h_out = new unsigned[(size_t)blocks * threads];
  unsigned *d_in, *d_out[3];
  CK(cudaMalloc(&d_in, n * sizeof(unsigned)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(unsigned), cudaMemcpyHostToDevice), "h2d");
  for (int k = 0; k < 3; k++) {
    CK(cudaMalloc(&d_out[k], out_bytes), "malloc");
    CK(cudaMemset(d_out[k], 0xAB, out_bytes), "memset");
  }
  view_kernel<<<blocks, threads>>>(d_in, n, d_out[0]);
  CK(cudaGetLastError(), "launch-view");
  own_kernel<<<blocks, threads>>>(d_in, n, d_out[1]);
  CK(cudaGetLastError(), "launch-own");
  member_kernel<<<blocks, threads>>>(d_in, n, d_out[2]);
  CK(cudaGetLastError(), "launch-member");
  CK(cudaDeviceSynchronize(), "sync");
  const char *labels[3] = {"view_kernel_out", "own_kernel_out", "member_kernel_out"};
  for (int k = 0; k < 3; k++) {
    CK(cudaMemcpy(h_out, d_out[k], out_bytes, cudaMemcpyDeviceToHost), "d2h");
    print_hash(labels[k], h_out, out_bytes);
  }
  return 0;
}
