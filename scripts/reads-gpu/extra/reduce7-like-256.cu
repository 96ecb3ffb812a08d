// Extra form for the GPU check: cuda-samples' reduce7 shape: SharedMemory<T>
// (a view of the dynamic shared memory, moved to the copy's share in block
// mode), a warp reduction helper (warpReduceSum: hoisted out of the copy's
// guard like a warp intrinsic), a ballot over the warp sums.
// Expected: refuse-thread (accept in block mode).
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
};

template <class T> __device__ __forceinline__ T warpReduceSum(unsigned int mask, T mySum) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    mySum += __shfl_down_sync(mask, mySum, offset);
  return mySum;
}

// tfuse-expect: refuse-thread
#pragma tfuse coarsen
template <typename T, unsigned int blockSize>
__global__ void reduce7_like(const T *g_idata, unsigned int n, T *g_odata) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockSize + threadIdx.x;
  T mySum = i < n ? g_idata[i] : 0;
  mySum = warpReduceSum<T>(0xffffffffu, mySum);
  if ((tid % warpSize) == 0)
    sdata[tid / warpSize] = mySum;
  __syncthreads();
  const unsigned int shmem_extent = (blockSize / warpSize) > 0 ? (blockSize / warpSize) : 1;
  const unsigned int ballot_result = __ballot_sync(0xffffffffu, tid < shmem_extent);
  if (tid < warpSize) {
    mySum = tid < shmem_extent ? sdata[tid] : 0;
    /* every lane of warp 0 takes part (a mask leaving out lanes that call
     * the shuffle is undefined; cuda-samples passes ballot_result here) */
    mySum = warpReduceSum<T>(0xffffffffu, mySum) + (T)(ballot_result & 1u);
  }
  g_odata[i] = mySum * 3 + (T)(tid & 7);
}

int main() {
  const int threads = 256, blocks = 37;
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
  reduce7_like<int, 256><<<blocks, threads, threads * sizeof(int)>>>(d_in, n, d_out);
  CK(cudaGetLastError(), "launch");
  CK(cudaDeviceSynchronize(), "sync");
  CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
  print_hash("out", h_out, out_bytes);
  return 0;
}
