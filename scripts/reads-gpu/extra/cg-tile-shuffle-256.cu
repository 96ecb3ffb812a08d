// Class 7: a `thread_block_tile<32>` shuffle reduction (`tile.shfl_down`).
// Breaks in: thread mode (merging K threads of a block changes which
// logical threads share a warp; a tile shuffle is warp-synchronous and
// must be refused like `__shfl_down_sync`). Block mode keeps warps intact.
// Expected: refused in thread mode, coarsened in block mode.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
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

// tfuse-expect: may-refuse
#pragma tfuse coarsen
__global__ void cg_tile_shfl_kernel(const int *in, int n, int *out) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = (i < n) ? in[i] : 0;
  for (int o = 16; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  out[i] = v;
}

int main() {
  const int threads = 256, blocks = 37;
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
  cg_tile_shfl_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
