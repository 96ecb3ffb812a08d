// Class: helpers that write through non-const reference parameters, and a
// temporary bound to an `&&` parameter.  tfuse's effect model follows a
// store to a helper's reference parameter to the argument each call binds:
// a varying __shared__ element (`add_to(sh[t], v)`, so block mode
// replicates `sh`), a block-varying value into a __shared__ scalar by one
// thread (`add_to(total, ...)`), the caller's locals (`split(v, hi, lo)`),
// and a struct's `operator+=` into a local accumulator while a shared tile
// that holds the same values for every logical block is read (hec-mdh's
// form: the tile may be kept once).  Before, such a store was unknown
// memory; now it is the argument's object, so a wrong mapping here is a
// miscompile, not a refusal.
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

__device__ void add_to(int &x, int v) { x += v; }
__device__ void split(int v, int &hi, int &lo) {
  hi = v >> 4;
  lo = v & 15;
}

struct acc4 {
  float a, b, c, d;
};
__device__ acc4 &operator+=(acc4 &x, const acc4 y) {
  x.a += y.a;
  x.b += y.b;
  x.c += y.c;
  x.d += y.d;
  return x;
}
__device__ acc4 make_acc(float a, float b, float c) { return acc4{a, b, c, 1.0f}; }

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void ref_kernel(const int *in, int n, int *out) {
  __shared__ int sh[192];
  __shared__ int total;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  sh[t] = 0;
  if (t == 0)
    total = 0;
  __syncthreads();
  int v = (i < n) ? in[i] : 7;
  add_to(sh[t], v);
  int hi, lo;
  split(v, hi, lo);
  __syncthreads();
  if (t == 0)
    add_to(total, sh[1] + (int)blockIdx.x);
  __syncthreads();
  if (i < n)
    out[i] = sh[(t + 1) % blockDim.x] * 3 + hi - lo + total;
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void tile_kernel(const float *ax, int natom, const float *g, float *out, int n) {
  __shared__ float tile[192];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  acc4 v = {0.0f, 0.0f, 0.0f, 0.0f};
  float gi = i < n ? g[i] : 0.0f;
  for (int j = 0; j < natom; j += blockDim.x) {
    if (j + t < natom)
      tile[t] = ax[j + t];
    __syncthreads();
    for (int k = 0; k < (int)blockDim.x && j + k < natom; k++)
      v += make_acc(gi - tile[k], gi * tile[k], tile[k]);
    __syncthreads();
  }
  if (i < n)
    out[i] = v.a + v.b + v.c + v.d;
}

int main() {
  const int threads = 192, blocks = 13;
  const int n = blocks * threads - 37;
  const int natom = 500;
  int *h_in = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  float *h_ax = new float[natom], *h_g = new float[n];
  for (int j = 0; j < natom; j++)
    h_ax[j] = (float)(lcg() % 1000u) / 250.0f - 2.0f;
  for (int j = 0; j < n; j++)
    h_g[j] = (float)(lcg() % 1000u) / 500.0f - 1.0f;
  const size_t out_bytes = (size_t)blocks * threads * sizeof(int);
  const size_t fout_bytes = (size_t)blocks * threads * sizeof(float);
  int *h_out = new int[(size_t)blocks * threads];
  float *h_fout = new float[(size_t)blocks * threads];
  int *d_in, *d_out;
  float *d_ax, *d_g, *d_fout;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMalloc(&d_ax, natom * sizeof(float)), "malloc");
  CK(cudaMalloc(&d_g, n * sizeof(float)), "malloc");
  CK(cudaMalloc(&d_fout, fout_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemcpy(d_ax, h_ax, natom * sizeof(float), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemcpy(d_g, h_g, n * sizeof(float), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
  CK(cudaMemset(d_fout, 0xAB, fout_bytes), "memset");
  ref_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  tile_kernel<<<blocks, threads>>>(d_ax, natom, d_g, d_fout, n);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  CK(cudaMemcpy(h_fout, d_fout, fout_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  print_hash("fout", h_fout, fout_bytes);
  return 0;
}
