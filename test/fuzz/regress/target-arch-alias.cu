// Class: code the device compiles differently from the host side tfuse
// reads, through an alias of the target that names no target macro in a
// condition, and no directive of the file that does: `#define APP_ARCH
// __CUDA_ARCH__` then `#if APP_ARCH >= 700` defining GID, a flag
// `MY_DEVICE` defined there and tested with `defined()`, a value
// (USE_THREAD) tested in a plain `if`, and a helper using such a macro.
// Each device branch reads threadIdx; the host's reads a constant or the
// block's first thread.  Before, no directive naming __CUDA_ARCH__ meant
// no device-side reading at all, and all four were coarsened host-side.
// Breaks in: both modes if read host-side: the kernel looks as if it
// stored a value the same for every copy (or the block's), and each copy
// would store the physical thread's index where the original stores the
// logical one's.
// Expected: refuse (both modes) for the four kernels that reach an alias;
// accept for `plain_kernel`, which reaches none (the aliases differing
// elsewhere in the file decide nothing for it).
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

static uint32_t lcg_state = 0x9E3779B9u;
static uint32_t lcg() {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}

#define APP_ARCH __CUDA_ARCH__
#if APP_ARCH >= 700
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define MY_DEVICE
#define USE_THREAD 1
#else
#define GID (blockIdx.x * blockDim.x)
#define USE_THREAD 0
#endif
#if defined(MY_DEVICE)
#define LANE (threadIdx.x % 32u)
#else
#define LANE 0u
#endif

__device__ unsigned lane_of() { return LANE; }

// tfuse-expect: refuse
#pragma tfuse coarsen
__global__ void alias_kernel(const unsigned *in, unsigned n, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 3u + (unsigned)GID;
}

// tfuse-expect: refuse
#pragma tfuse coarsen
__global__ void flag_kernel(const unsigned *in, unsigned n, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1000u * LANE;
}

// tfuse-expect: refuse
#pragma tfuse coarsen
__global__ void if_kernel(const unsigned *in, unsigned n, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = 7u;
  if (USE_THREAD)
    v = threadIdx.x;
  if (i < n)
    out[i] = in[i] ^ v;
}

// tfuse-expect: refuse
#pragma tfuse coarsen
__global__ void helper_kernel(const unsigned *in, unsigned n, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 5u + lane_of();
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void plain_kernel(const unsigned *in, unsigned n, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 9u + i;
}

int main() {
  const unsigned threads = 96, blocks = 37;
  const unsigned n = blocks * threads - 29;
  const size_t bytes = (size_t)blocks * threads * sizeof(unsigned);
  unsigned *h_in = new unsigned[(size_t)blocks * threads];
  for (unsigned j = 0; j < blocks * threads; j++)
    h_in[j] = lcg() % 100000u;
  unsigned *h_out = new unsigned[(size_t)blocks * threads];
  unsigned *d_in, *d_out[5];
  CK(cudaMalloc(&d_in, bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice), "h2d");
  for (int k = 0; k < 5; k++) {
    CK(cudaMalloc(&d_out[k], bytes), "malloc");
    CK(cudaMemset(d_out[k], 0xAB, bytes), "memset");
  }
  alias_kernel<<<blocks, threads>>>(d_in, n, d_out[0]);
  CK(cudaGetLastError(), "launch alias");
  flag_kernel<<<blocks, threads>>>(d_in, n, d_out[1]);
  CK(cudaGetLastError(), "launch flag");
  if_kernel<<<13, 192>>>(d_in, n < 13u * 192u ? n : 13u * 192u, d_out[2]);
  CK(cudaGetLastError(), "launch if");
  helper_kernel<<<blocks, threads>>>(d_in, n, d_out[3]);
  CK(cudaGetLastError(), "launch helper");
  plain_kernel<<<blocks, threads>>>(d_in, n, d_out[4]);
  CK(cudaGetLastError(), "launch plain");
  CK(cudaDeviceSynchronize(), "sync");
  const char *labels[5] = {"alias_kernel_out", "flag_kernel_out", "if_kernel_out", "helper_kernel_out",
                           "plain_kernel_out"};
  for (int k = 0; k < 5; k++) {
    CK(cudaMemcpy(h_out, d_out[k], bytes, cudaMemcpyDeviceToHost), "d2h");
    print_hash(labels[k], h_out, bytes);
  }
  return 0;
}
