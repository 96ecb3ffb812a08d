// Class 12: a struct local declared without initializer and assigned from
// memory per thread (`uint3 v; v = keys[i];`), then used.
// Breaks in: both modes (`v = keys[i]` is a call of uint3's implicit copy
// assignment operator: a write of a varying value; if tfuse does not see it
// as an assignment, `v` stays uniform, is declared once, and every copy
// uses the last copy's key).
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
__global__ void uint3_kernel(const uint3 *keys, int n, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint3 v;
  v = keys[i < n ? i : n - 1];
  out[i] = v.x * 3u + v.y * 5u + (v.z ^ (unsigned)i);
}

int main() {
  const int threads = 96, blocks = 37;
  const int n = blocks * threads - 41;
  uint3 *h_keys = new uint3[n];
  unsigned *h_out = new unsigned[blocks * threads];
  for (int j = 0; j < n; j++) {
    h_keys[j].x = lcg();
    h_keys[j].y = lcg();
    h_keys[j].z = lcg();
  }
  uint3 *d_keys;
  unsigned *d_out;
  CK(cudaMalloc(&d_keys, n * sizeof(uint3)), "malloc");
  CK(cudaMalloc(&d_out, blocks * threads * sizeof(unsigned)), "malloc");
  CK(cudaMemcpy(d_keys, h_keys, n * sizeof(uint3), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, blocks * threads * sizeof(unsigned)), "memset");
  uint3_kernel<<<blocks, threads>>>(d_keys, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, blocks * threads * sizeof(unsigned), cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, blocks * threads * sizeof(unsigned));
  return 0;
}
