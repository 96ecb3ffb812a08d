// Class: block mode, a dead copy (its logical block past the grid's end)
// running a call taken out of its guard. A warp-synchronous call, or a
// helper computing a value with warp calls (effects.c call_is_warp_value),
// is evaluated by every lane unguarded (fuse.c emit_warp_hoists); a dead
// copy ran it with its own arguments: `wsum(rows[blockIdx.x])` got a null
// row (its argument's load was guarded to 0) and `wsum(in + blockIdx.x *
// 32)` an address past the allocation, which the helper dereferences:
// illegal address at K = 2, 4, 8 with 37 blocks. Loads spelled as calls
// (`__ldg(in + i)`, `__ldcs`, `__ldcg`, `__ldlu`) were not guarded at all.
// Now a dead copy's hoisted call gets copy 0's arguments where its own
// differ (`wsum(__tf_ok_1 ? (arg_1) : (arg_0))`: every lane takes part,
// loading only what live copy 0 loads), and calls of the load class are
// guarded like subscripts. Inputs are allocated exactly for the logical
// grid (37 blocks, no K in 2..8 divides it).
// Expected: refuse-thread@yz,refuse-thread.consecutive (lane arithmetic in
// the helper: thread mode keeps it with the stride mapping along x alone).
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



__device__ unsigned wsum(const unsigned *p) {
  unsigned v = p[threadIdx.x % 32];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// tfuse-expect: refuse-thread@yz,refuse-thread.consecutive
#pragma tfuse coarsen
__global__ void dc_warp_helper(const unsigned *const *rows, const unsigned *in, unsigned *out) {
  unsigned a = wsum(rows[blockIdx.x]);
  unsigned b = wsum(in + blockIdx.x * 32);
  unsigned c = __shfl_sync(0xffffffffu, __ldg(rows[blockIdx.x] + threadIdx.x % 32), 3);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = a * 3u + b * 5u + c;
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void dc_ldg(const unsigned *in, unsigned n, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = __ldg(in + i);
  unsigned b = __ldcs(in + i);
  unsigned c = __ldcg(in + i);
  unsigned d = __ldlu(in + i);
  out[i] = a + b * 3u + c * 5u + d * 7u;
}

int main() {
  const int threads = 96, blocks = 37;
  unsigned *h_rows[blocks], **d_rows, *d_in, *d_out1, *d_out2;
  unsigned h_row[32];
  for (int b = 0; b < blocks; b++) {
    for (int j = 0; j < 32; j++)
      h_row[j] = lcg() % 1000u;
    CK(cudaMalloc(&h_rows[b], sizeof h_row), "malloc");
    CK(cudaMemcpy(h_rows[b], h_row, sizeof h_row, cudaMemcpyHostToDevice), "h2d");
  }
  CK(cudaMalloc(&d_rows, sizeof h_rows), "malloc");
  CK(cudaMemcpy(d_rows, h_rows, sizeof h_rows, cudaMemcpyHostToDevice), "h2d");
  const unsigned n = blocks * threads;
  unsigned *h_in = new unsigned[n], *h_out = new unsigned[n];
  for (unsigned j = 0; j < n; j++)
    h_in[j] = lcg() % 100000u;
  CK(cudaMalloc(&d_in, n * sizeof(unsigned)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(unsigned), cudaMemcpyHostToDevice), "h2d");
  const size_t out1_bytes = (size_t)blocks * (threads / 32) * sizeof(unsigned), out2_bytes = n * sizeof(unsigned);
  CK(cudaMalloc(&d_out1, out1_bytes), "malloc");
  CK(cudaMalloc(&d_out2, out2_bytes), "malloc");
  CK(cudaMemset(d_out1, 0xAB, out1_bytes), "memset");
  CK(cudaMemset(d_out2, 0xAB, out2_bytes), "memset");
  dc_warp_helper<<<blocks, threads>>>(d_rows, d_in, d_out1);
  CK(cudaGetLastError(), "launch");
  dc_ldg<<<blocks, threads>>>(d_in, n, d_out2);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out1, out1_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("dc_warp_helper_out", h_out, out1_bytes);
  CK(cudaMemcpy(h_out, d_out2, out2_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("dc_ldg_out", h_out, out2_bytes);
  return 0;
}
