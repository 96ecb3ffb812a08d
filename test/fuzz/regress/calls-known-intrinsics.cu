// Class: CUDA intrinsics and math analysed from tfuse's table instead of
// refused: pure math and conversions (uniform when their arguments are),
// __ldg at a uniform address (a load, emitted once) and at a varying one,
// __ldcg, sincosf writing through pointers, an atomic's returned value
// (per copy), clock64 (per copy; its value never reaches the output),
// __popc/__brev/__byte_perm, half conversions.
// Breaks in: both modes if a class were wrong (an atomic or a clock read
// emitted once, a pointer output of sincosf shared between copies).
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

#include <cuda_fp16.h>

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void intrinsics_kernel(const float *in, int n, float *out, unsigned *ticket, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = (i < n) ? __ldg(&in[i]) : 0.5f;
  float base = __ldg(&in[7]) + __ldcg(&in[3]);
  float a = __fdividef(s, 3.0f) + fmaxf(s, 1.0f) + __half2float(__float2half(s));
  float sn, cs;
  sincosf(x, &sn, &cs);
  unsigned t = atomicAdd(ticket, 1u);
  long long c = clock64();
  if (c < 0)
    x = 0.0f;
  unsigned bits = __popc(__float_as_uint(x)) + (__brev((unsigned)i) >> 28) + __byte_perm((unsigned)i, 0u, 0x3210);
  out[i] = x * a + base + sn * 2.0f + cs + (float)(bits & 1023u) + (float)min(t, 0u) + fabsf(x - s) + sqrtf(fabsf(x));
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 37;
  float *h_in = new float[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (float)((int)(lcg() % 2001u) - 1000) / 100.0f;
  const size_t out_bytes = (size_t)blocks * threads * sizeof(float);
  float *h_out = new float[(size_t)blocks * threads];
  unsigned h_ticket = 0;
  float *d_in, *d_out;
  unsigned *d_ticket;
  CK(cudaMalloc(&d_in, n * sizeof(float)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMalloc(&d_ticket, sizeof(unsigned)), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
  CK(cudaMemset(d_ticket, 0, sizeof(unsigned)), "memset");
  intrinsics_kernel<<<blocks, threads>>>(d_in, n, d_out, d_ticket, 1.25f);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(&h_ticket, d_ticket, sizeof(unsigned), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  print_hash("ticket", &h_ticket, sizeof h_ticket);
  return 0;
}
