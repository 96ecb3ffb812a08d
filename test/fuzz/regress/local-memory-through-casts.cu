// A local array written through a pointer made from it is memory: every
// copy needs its own, whatever chain of decays, casts, subscripts and
// arithmetic made the pointer.  HeCBench's vadd-cuda loads 8 halves into a
// row of `__half frag[M][N]` through a `float4` cast: the row `frag[v]`
// decayed, was cast and written, and tfuse kept one `frag` for both copies
// (block K = 2 wrong).  Each kernel here writes a local through another
// form: a row of a 2-D array cast to float4, the address of its first
// element, a member array of a local struct, pointer arithmetic on the
// flattened array, and a pointer local made from a row.
// Expected: accept, both modes.
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
__global__ void row_cast(const float *in, float *out, int n) {
  float frag[2][4];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (base + 8 > n)
    return;
  for (int v = 0; v < 2; v++)
    *reinterpret_cast<float4 *>(frag[v]) = *reinterpret_cast<const float4 *>(in + base + 4 * v);
  for (int v = 0; v < 2; v++)
    *reinterpret_cast<float4 *>(out + base + 4 * v) = *reinterpret_cast<const float4 *>(frag[1 - v]);
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void elem_addr(const float *in, float *out, int n) {
  float frag[2][4];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (base + 8 > n)
    return;
  for (int v = 0; v < 2; v++)
    *(float4 *)&frag[v][0] = *(const float4 *)(in + base + 4 * v);
  float s = 0.0f;
  for (int v = 0; v < 2; v++)
    for (int j = 0; j < 4; j++)
      s = s * 2.0f + frag[v][j];
  out[base / 8] = s;
}

struct Frag {
  unsigned a[4];
  unsigned tag;
};

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void member_array(const unsigned *in, unsigned *out, int n) {
  Frag f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * 4 + 4 > n)
    return;
  f.tag = i;
  *reinterpret_cast<uint4 *>(f.a) = *reinterpret_cast<const uint4 *>(in + i * 4);
  out[i] = f.a[0] * 3u + f.a[1] * 5u + f.a[2] * 7u + f.a[3] * 11u + f.tag;
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void flat_arith(const unsigned *in, unsigned *out, int n) {
  unsigned m[3][4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++)
      m[r][c] = 0u;
  unsigned *flat = &m[0][0];
  if (i < n)
    for (int j = 0; j < 12; j++)
      *(flat + j) = in[i] + j * 13u;
  out[i] = m[2][3] ^ (m[1][1] << 1) ^ m[0][2];
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void row_pointer(const unsigned *in, unsigned *out, int n) {
  unsigned m[2][8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < 2; r++) {
    unsigned *row = m[r];
    for (int c = 0; c < 8; c++)
      row[c] = (i < n ? in[i] : 1u) * (unsigned)(r * 8 + c + 1);
  }
  unsigned acc = 0u;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 8; c++)
      acc = acc * 31u + m[r][c];
  out[i] = acc;
}

int main() {
  const int threads = 96, blocks = 37;
  const int nt = blocks * threads;
  const int nf = nt * 8;
  float *h_f = new float[nf];
  unsigned *h_u = new unsigned[nf];
  for (int j = 0; j < nf; j++) {
    h_f[j] = (float)(int)(lcg() % 2001u - 1000u) * 0.25f;
    h_u[j] = lcg();
  }
  float *d_f, *d_fo;
  unsigned *d_u, *d_uo;
  CK(cudaMalloc(&d_f, nf * sizeof(float)), "malloc");
  CK(cudaMalloc(&d_fo, nf * sizeof(float)), "malloc");
  CK(cudaMalloc(&d_u, nf * sizeof(unsigned)), "malloc");
  CK(cudaMalloc(&d_uo, nf * sizeof(unsigned)), "malloc");
  CK(cudaMemcpy(d_f, h_f, nf * sizeof(float), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemcpy(d_u, h_u, nf * sizeof(unsigned), cudaMemcpyHostToDevice), "h2d");
  float *h_fo = new float[nf];
  unsigned *h_uo = new unsigned[nf];
  const int nlim[2] = {nf - 40, nf};
  for (int pass = 0; pass < 2; pass++) {
    CK(cudaMemset(d_fo, 0xAB, nf * sizeof(float)), "memset");
    row_cast<<<blocks, threads>>>(d_f, d_fo, nlim[pass]);
    CK(cudaGetLastError(), "launch");
    CK(cudaMemcpy(h_fo, d_fo, nf * sizeof(float), cudaMemcpyDeviceToHost), "d2h");
    print_hash(pass ? "row_cast_out_1" : "row_cast_out_0", h_fo, nf * sizeof(float));
    CK(cudaMemset(d_fo, 0xAB, nf * sizeof(float)), "memset");
    elem_addr<<<blocks, threads>>>(d_f, d_fo, nlim[pass]);
    CK(cudaGetLastError(), "launch");
    CK(cudaMemcpy(h_fo, d_fo, nf * sizeof(float), cudaMemcpyDeviceToHost), "d2h");
    print_hash(pass ? "elem_addr_out_1" : "elem_addr_out_0", h_fo, nf * sizeof(float));
  }
  CK(cudaMemset(d_uo, 0xAB, nf * sizeof(unsigned)), "memset");
  member_array<<<blocks, threads>>>(d_u, d_uo, nt * 4 - 20);
  CK(cudaGetLastError(), "launch");
  CK(cudaMemcpy(h_uo, d_uo, nf * sizeof(unsigned), cudaMemcpyDeviceToHost), "d2h");
  print_hash("member_array_out", h_uo, nf * sizeof(unsigned));
  CK(cudaMemset(d_uo, 0xAB, nf * sizeof(unsigned)), "memset");
  flat_arith<<<blocks, threads>>>(d_u, d_uo, nt - 50);
  CK(cudaGetLastError(), "launch");
  CK(cudaMemcpy(h_uo, d_uo, nf * sizeof(unsigned), cudaMemcpyDeviceToHost), "d2h");
  print_hash("flat_arith_out", h_uo, nf * sizeof(unsigned));
  CK(cudaMemset(d_uo, 0xAB, nf * sizeof(unsigned)), "memset");
  row_pointer<<<blocks, threads>>>(d_u, d_uo, nt - 50);
  CK(cudaGetLastError(), "launch");
  CK(cudaMemcpy(h_uo, d_uo, nf * sizeof(unsigned), cudaMemcpyDeviceToHost), "d2h");
  print_hash("row_pointer_out", h_uo, nf * sizeof(unsigned));
  CK(cudaDeviceSynchronize(), "sync");
  return 0;
}
