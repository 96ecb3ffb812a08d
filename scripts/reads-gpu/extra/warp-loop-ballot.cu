// Extra form for the GPU check: a warp reduction by shuffles in a uniform
// loop, a ballot under a uniform if, __syncwarp between, an xor butterfly,
// a shuffle whose argument loads (guarded per copy), in block mode at K up
// to 16 (warp calls evaluated unguarded by every lane, results selected).
// Expected: refuse-thread (accept in block mode).
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


// tfuse-expect: refuse-thread
#pragma tfuse coarsen
__global__ void warp_loop_kernel(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 11;
  int s = v;
  for (int d = 16; d > 0; d >>= 1)
    s += __shfl_down_sync(0xffffffffu, s, d);
  unsigned b = 0;
  if (n > 100)
    b = __ballot_sync(0xffffffffu, (v & 1) != 0);
  __syncwarp();
  int x = v;
  for (int d = 1; d < 32; d <<= 1)
    x = max(x, __shfl_xor_sync(0xffffffffu, x, d));
  int y = __shfl_sync(0xffffffffu, in[(i * 7) % n], (threadIdx.x + 5) & 31);
  out[i] = s * 5 + (int)__popc(b) * 3 + x + y;
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
  warp_loop_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
