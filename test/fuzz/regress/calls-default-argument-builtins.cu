// Class: default arguments that read the coordinates: `gid()` with
// `unsigned b = blockIdx.x, unsigned d = blockDim.x, unsigned t =
// threadIdx.x`, `lane(int t = threadIdx.x)`, a default in a prototype, a
// member function's default, and a helper calling them (cloned).
// Breaks in: both modes when the call is emitted as written: a default is
// evaluated at the call, with the physical index, and the call looked
// uniform (its operands are).  Now each copy's call spells the defaults
// out with the copy's logical index (in a clone, with __tf_r).
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

__device__ int gid(unsigned b = blockIdx.x, unsigned d = blockDim.x, unsigned t = threadIdx.x) {
  return (int)(b * d + t);
}
__device__ int lane(int t = threadIdx.x) { return t & 31; }
__device__ int shifted(int s, unsigned b = blockIdx.x * 2u + 1u);
__device__ int shifted(int s, unsigned b) { return s + (int)b; }
__device__ int via() { return gid() * 5 + shifted(1); }
struct Base {
  int o;
  __device__ int at(unsigned b = blockIdx.x, unsigned g = gridDim.x) const { return o + (int)(b * 3u + g); }
};

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void default_args_kernel(const int *in, int n, int *out) {
  Base base{11};
  int i = gid();
  int v = via() + base.at() + lane() * 1000;
  if (i < n)
    out[i] = in[i] * 3 + v + gid(7, 2);
  else
    out[i] = v - lane(5);
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
  default_args_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
