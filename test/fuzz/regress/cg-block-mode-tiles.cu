// Cooperative groups in block mode: a 32-thread tile and an 8-thread tile
// of it, their queries (meta_group_rank as a row index, thread_rank,
// size), collectives (cg::reduce with plus and greater, inclusive_scan,
// shfl_xor, ballot, any, sync) and the block's cg::sync around shared
// memory.  Breaks if: a copy's collective ran under a guard some lanes skip,
// or the tile's queries were renumbered as the block index is.  Thread
// mode: refused (merging threads moves lanes between warps).
// Expected: coarsened in block mode, refused in thread mode.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
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
__global__ void cg_rows_kernel(const int *in, int n, int *out, unsigned *bits) {
  __shared__ int part[192 / 32];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
  cg::thread_block_tile<8> oct = cg::tiled_partition<8>(warp);
  int row = blockIdx.x * (int)warp.meta_group_size() + (int)warp.meta_group_rank();
  int i = blockIdx.x * (int)cta.size() + (int)cta.thread_rank();
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(warp, v, cg::plus<int>());
  int mx = cg::reduce(oct, v, cg::greater<int>());
  int pre = cg::inclusive_scan(warp, v & 15);
  for (int o = 4; o > 0; o /= 2)
    v += oct.shfl_xor(v, o);
  unsigned b = warp.ballot(v > 0);
  int any = warp.any(v > 900) ? 1 : 0;
  if (warp.thread_rank() == 0)
    part[warp.meta_group_rank()] = s;
  cg::sync(cta);
  int t = 0;
  for (unsigned w = 0; w < warp.meta_group_size(); w++)
    t += part[w];
  warp.sync();
  out[i] = v * 7 + s * 3 + mx + pre * 5 + any + t * 11 + (int)oct.thread_rank();
  if (warp.thread_rank() == 0)
    bits[row] = b ^ (unsigned)blockIdx.x;
}

int main() {
  const int threads = 192, blocks = 37;
  const int n = blocks * threads - 37;
  int *h_in = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  const size_t out_bytes = (size_t)blocks * threads * sizeof(int);
  const size_t bit_bytes = (size_t)blocks * (threads / 32) * sizeof(unsigned);
  int *h_out = new int[(size_t)blocks * threads];
  unsigned *h_bits = new unsigned[(size_t)blocks * (threads / 32)];
  int *d_in, *d_out;
  unsigned *d_bits;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMalloc(&d_bits, bit_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
  CK(cudaMemset(d_bits, 0xAB, bit_bytes), "memset");
  cg_rows_kernel<<<blocks, threads>>>(d_in, n, d_out, d_bits);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_bits, d_bits, bit_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  print_hash("bits", h_bits, bit_bytes);
  return 0;
}
