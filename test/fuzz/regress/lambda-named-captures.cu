// Lambdas with named capture lists in a kernel, each capturing variables
// that differ between the copies: a copy `[x]`, a reference `[&s, i]`
// written by the body, `[=, &acc]`, init-captures `[y = v * 3u, &i]` and
// `[v = v + 1u]` (the closure's own `v` shadows the kernel's) with
// `mutable`.
// Breaks in: both modes where the capture list is emitted as written
// while the variables are renamed per copy (nvcc rejects the undeclared
// name), or where one closure serves several copies.  tfuse used to refuse
// every named capture; it now renames each with its variable.  An
// init-capture whose initializer writes or calls stays refused.
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
__global__ void lam_kernel(const unsigned int *in, int n, unsigned int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int v = i < n ? in[i] : 7u;
  unsigned int s = 0u, acc = 1u;
  auto copy = [v](unsigned int a) { return v * 5u + a; };
  auto ref = [&s, i](unsigned int a) { s += a + (unsigned int)i; return s; };
  auto mixed = [=, &acc](unsigned int a) { acc = acc * 31u + a + v; };
  auto init = [y = v * 3u, &i](unsigned int a) mutable { y += a; return y ^ (unsigned int)i; };
  auto shadow = [v = v + 1u](unsigned int a) mutable { v *= a + 1u; return v; };
  for (unsigned int q = 0; q < (v & 3u) + 1u; ++q) {
    mixed(q);
    ref(copy(q));
  }
  if (i < n)
    out[i] = s ^ acc ^ init(v & 15u) ^ init(2u) ^ shadow(3u) ^ shadow(v & 7u);
}

int main() {
  const int threads = 192;
  const int grids[2] = {13, 37};
  const int total = 37 * threads;
  unsigned int *h_in = new unsigned int[total], *h_out = new unsigned int[total];
  for (int j = 0; j < total; j++)
    h_in[j] = lcg();
  unsigned int *d_in, *d_out;
  CK(cudaMalloc(&d_in, total * sizeof(unsigned int)), "malloc");
  CK(cudaMalloc(&d_out, total * sizeof(unsigned int)), "malloc");
  CK(cudaMemcpy(d_in, h_in, total * sizeof(unsigned int), cudaMemcpyHostToDevice), "h2d");
  for (int g = 0; g < 2; g++) {
    int n = grids[g] * threads - 23;
    CK(cudaMemset(d_out, 0xAB, total * sizeof(unsigned int)), "memset");
    lam_kernel<<<grids[g], threads>>>(d_in, n, d_out);
    CK(cudaGetLastError(), "launch");
    CK(cudaDeviceSynchronize(), "sync");
    CK(cudaMemcpy(h_out, d_out, total * sizeof(unsigned int), cudaMemcpyDeviceToHost), "d2h");
    print_hash(g ? "lam_kernel_out37" : "lam_kernel_out13", h_out, total * sizeof(unsigned int));
  }
  return 0;
}
