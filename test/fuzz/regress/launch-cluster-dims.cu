// Thread-block clusters with a coarsened kernel: `__cluster_dims__(2, 1, 1)`
// on the kernel, and a cluster dimension of 2 passed to cudaLaunchKernelEx
// as a launch attribute.  The grid must be a multiple of the cluster.
// Breaks in: block mode, where the grid of merged blocks is 1/K of the
// original's (26 -> 13 at K = 2, 7 at K = 4) and the cluster of 2 is kept:
// the launch fails (cudaErrorInvalidClusterSize / invalid configuration).
// tfuse now divides the cluster along the coarsened dimension (c / K where
// K divides c, else 1), in the attribute and in the launch's attributes;
// neither kernel reads its cluster.  Thread mode keeps the grid and the
// cluster.  Needs a device with clusters (sm_90).
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
__global__ void __cluster_dims__(2, 1, 1) cl_kernel(const int *in, int n, int *out) {
  __shared__ int sh[192];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  sh[t] = (i < n) ? in[i] : -t;
  __syncthreads();
  if (i < n)
    out[i] = sh[blockDim.x - 1 - t] + 5 * (int)blockIdx.x;
}

// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void cl_ex_kernel(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 7 - (int)blockIdx.x;
}

int main() {
  const int threads = 96, max_blocks = 74;
  const int total = max_blocks * threads;
  int *h_in = new int[total], *h_out = new int[total];
  for (int j = 0; j < total; j++)
    h_in[j] = (int)(lcg() % 2001u) - 1000;
  int *d_in, *d_out;
  CK(cudaMalloc(&d_in, total * sizeof(int)), "malloc");
  CK(cudaMalloc(&d_out, total * sizeof(int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, total * sizeof(int), cudaMemcpyHostToDevice), "h2d");

  const int grids[2] = {26, 74};
  for (int g = 0; g < 2; g++) {
    int n = grids[g] * threads - 17;
    CK(cudaMemset(d_out, 0xAB, total * sizeof(int)), "memset");
    cl_kernel<<<grids[g], threads>>>(d_in, n, d_out);
    CK(cudaGetLastError(), "launch cl_kernel");
    CK(cudaDeviceSynchronize(), "sync");
    CK(cudaMemcpy(h_out, d_out, total * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
    print_hash(g ? "cl_kernel_out74" : "cl_kernel_out26", h_out, total * sizeof(int));
  }

  for (int g = 0; g < 2; g++) {
    int n = grids[g] * threads - 41;
    CK(cudaMemset(d_out, 0xAB, total * sizeof(int)), "memset");
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grids[g]);
    cfg.blockDim = dim3(threads);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 2;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, cl_ex_kernel, (const int *)d_in, n, d_out), "launch cl_ex_kernel");
    CK(cudaDeviceSynchronize(), "sync");
    CK(cudaMemcpy(h_out, d_out, total * sizeof(int), cudaMemcpyDeviceToHost), "d2h");
    print_hash(g ? "cl_ex_kernel_out74" : "cl_ex_kernel_out26", h_out, total * sizeof(int));
  }
  return 0;
}
