// Class: a view over a __shared__ array (a struct holding the pointer, whose
// `float &operator[](int i)` returns `p[i]`): the store `v[t] = x` writes the
// array, not the view.  Broke in block mode: the store read as a write of the
// local view alone, so `sh` was not replicated per logical block, the K
// copies wrote one array, and the read after the barrier was loaded once as
// uniform.  Now a method of a class that may hold a pointer returns a
// reference tfuse does not follow, and block mode refuses the kernel (the
// address of `sh` escapes); thread mode keeps the one array, as written.
// A class with only an array member (`Packed`) returns references into
// itself: accepted in both modes.
// Expected: view_kernel refuse-block; packed_kernel accept.
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

struct View {
  int *p;
  __device__ int &operator[](int i) { return p[i]; }
};
struct Packed {
  int v[4];
  __device__ int &operator[](int i) { return v[i]; }
};

// tfuse-expect: refuse-block
#pragma tfuse coarsen
__global__ void view_kernel(const int *in, int n, int *out) {
  __shared__ int sh[192];
  View v{sh};
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  v[t] = (i < n) ? in[i] : 7;
  __syncthreads();
  if (i < n)
    out[i] = sh[(t + 1) % blockDim.x] * 3 + sh[t];
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void packed_kernel(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Packed q;
  for (int k = 0; k < 4; k++)
    q[k] = (i < n) ? in[i] + k : k;
  if (i < n)
    out[i] = q[0] * q[1] + q[2] - q[3];
}

int main() {
  const int threads = 192, blocks = 13;
  const int n = blocks * threads - 37;
  int *h_in = new int[n];
  for (int j = 0; j < n; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  const size_t out_bytes = (size_t)blocks * threads * sizeof(int);
  int *h_out = new int[(size_t)blocks * threads];
  int *d_in, *d_out, *d_out2;
  CK(cudaMalloc(&d_in, n * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMalloc(&d_out2, out_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice), "h2d");
  CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
  CK(cudaMemset(d_out2, 0xAB, out_bytes), "memset");
  view_kernel<<<blocks, threads>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  packed_kernel<<<blocks, threads>>>(d_in, n, d_out2);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("view_kernel", h_out, out_bytes);
  CK(cudaMemcpy(h_out, d_out2, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("packed_kernel", h_out, out_bytes);
  return 0;
}
