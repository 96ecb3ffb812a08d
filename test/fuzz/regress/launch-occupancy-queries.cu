// The runtime's queries of a coarsened kernel: cudaOccupancyMaxPotentialBlockSize,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// cudaOccupancyAvailableDynamicSMemPerBlock and cudaFuncGetAttributes (after
// cudaFuncSetAttribute and cudaFuncSetCacheConfig) must answer as for the
// original kernel: the program hashes the answers and picks its block size
// and grid from them.
// Breaks in: both modes where a query describes the coarsened kernel (its
// registers, its K replicas of the static __shared__ tile in block mode)
// or rescales it (blocks per multiprocessor times K): the answers differ
// and the launch the program picks from them too.  tfuse now passes each
// query the original, kept as occ_kernel__tf_orig, and each setter to both.
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
__global__ void occ_kernel(const int *in, int n, int *out) {
  __shared__ int tile[1024];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = (i < n) ? in[i] : t;
  __syncthreads();
  if (i < n)
    out[i] = tile[blockDim.x - 1 - t] * 3 + (int)blockDim.x + (int)gridDim.x * 7;
}

int main() {
  int ans[9];
  int min_grid = 0, best = 0, per_sm = 0;
  size_t avail = 0;
  cudaFuncAttributes attr;
  CK(cudaFuncSetCacheConfig(occ_kernel, cudaFuncCachePreferShared), "cache");
  CK(cudaFuncSetAttribute(occ_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 20000), "attr");
  CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, occ_kernel, 0, 0), "potential");
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, occ_kernel, 96, 0), "active");
  CK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, occ_kernel, per_sm, 96), "avail");
  CK(cudaFuncGetAttributes(&attr, occ_kernel), "attributes");
  ans[0] = best;
  ans[1] = per_sm;
  ans[2] = (int)avail;
  ans[3] = attr.numRegs;
  ans[4] = (int)attr.sharedSizeBytes;
  ans[5] = attr.maxThreadsPerBlock;
  ans[6] = attr.maxDynamicSharedSizeBytes;
  ans[7] = attr.localSizeBytes > 0 ? 1 : 0;
  ans[8] = min_grid > 0 ? 1 : 0;
  print_hash("occ_kernel_answers", ans, sizeof ans);

  /* The launch the answers pick: 192 threads where the best block and the
   * blocks per multiprocessor allow, else 96; 13 or 37 blocks. */
  const int threads = (best >= 192 && per_sm >= 8) ? 192 : 96;
  const int blocks = per_sm >= 16 ? 37 : 13;
  const int n = blocks * threads - 29;
  int *h_in = new int[n], *h_out = new int[37 * 192];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  int *d_in, *d_out;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, 37 * 192 * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, 37 * 192 * sizeof(int)), "memset");
  occ_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, 37 * 192 * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
  print_hash("occ_kernel_out", h_out, 37 * 192 * sizeof(int));
  return 0;
}
