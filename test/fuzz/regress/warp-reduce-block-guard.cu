// Class: warp-synchronous intrinsics in block mode: __reduce_add_sync,
// __reduce_max_sync, __reduce_or_sync, __match_any_sync, __ballot_sync,
// __any_sync/__all_sync and the shuffles, each copy's call under a guard
// that says only that its logical block is live.
// Breaks in: block mode at K = 8 (and 16) when the calls are emitted under
// TFUSE_GUARD(__tf_ok_r, ...): the source reads right, but nvcc 13's
// optimizing ptxas gives wrong sums and maxima (right with -Xptxas -O0).
// Now each such call is evaluated unguarded by every lane into a
// temporary, its loading arguments guarded, and the statement reads it.
// Expected: refuse-thread@yz,refuse-thread.consecutive (accept in block mode;
// thread mode keeps warps whole only with the stride mapping along x, where
// each launch checks blockDim.x / K is whole warps).
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


// tfuse-expect: refuse-thread@yz,refuse-thread.consecutive
#pragma tfuse coarsen
__global__ void warp_reduce_kernel(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : -3;
  int s = __reduce_add_sync(0xffffffffu, v);
  unsigned mx = __reduce_max_sync(0xffffffffu, (unsigned)(v + 1000));
  unsigned mn = __reduce_min_sync(0xffffffffu, (unsigned)(v + 1000));
  unsigned o = __reduce_or_sync(0xffffffffu, (unsigned)v), a = __reduce_and_sync(0xffffffffu, (unsigned)v);
  unsigned x = __reduce_xor_sync(0xffffffffu, (unsigned)v);
  unsigned m = __match_any_sync(0xffffffffu, v & 3);
  unsigned b = __ballot_sync(0xffffffffu, v > 0);
  int votes = __any_sync(0xffffffffu, v > 900) * 2 + __all_sync(0xffffffffu, v > -1000);
  int t = v;
  for (int d = 16; d > 0; d >>= 1)
    t += __shfl_down_sync(0xffffffffu, t, d);
  t += __shfl_xor_sync(0xffffffffu, in[i % n], 3) + __shfl_up_sync(0xffffffffu, v, 2);
  t += __shfl_sync(0xffffffffu, v, 7);
  __syncwarp();
  out[i] = s * 3 + (int)(mx - mn) + (int)((o ^ a ^ x) & 0xffff) + __popc(m) * 7 + __popc(b) + votes + t;
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
  warp_reduce_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
