// Class: cuda-samples' SharedMemory<T> idiom: `T *sdata = SharedMemory<T>();`
// in a template kernel, where the struct's conversion operator declares
// `extern __shared__ int __smem[]` and returns it.  In the template the
// conversion has no call in the text.
// Breaks in: block mode when emitted as seen: the copies share one array
// (`sdata[tid] = ...` of copy 1 overwrites copy 0's) and the launch asks
// for one share.  Now `sdata` is a view of the dynamic shared memory: copy
// r's is moved to share r and the launch asks for K shares, as for the
// kernel's own extern array; thread mode keeps one block's shared memory.
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

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

// tfuse-expect: accept
#pragma tfuse coarsen
template <class T>
__global__ void shared_memory_reduce(const T *g_idata, unsigned int n, T *g_odata) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0 && tid + s < blockDim.x)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  g_odata[i] = sdata[0] * 7 + sdata[(tid + 1) % blockDim.x];
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
  shared_memory_reduce<int><<<blocks, threads, threads * sizeof(int)>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
