// Shared objects of every declarator form in block mode: pointers, arrays of
// pointers, pointers to arrays, arrays of pointers to arrays, a struct, a
// union, an array of structs, a 2-D array, a typedef of an array, a typedef
// of a pointer, volatile elements; stores through a typedef'd and an `auto`
// pointer to a shared array; arrays of pointers promoted to registers.
// Once: a typedef'd array and the arrays written through typedef'd or auto
// pointers were not replicated (their stores were taken to write nothing:
// copy r read what another logical block wrote), -layout interleaved broke
// a pointer-to-array declarator, and promoted pointer registers were
// declared `T * r0, r1;` (nvcc rejects).  Now each is replicated with its
// whole declarator per copy.  Grids of 13 and 37 blocks, 96 threads.
// Expected: accept (all kernels, both modes, both layouts; decl_forms
// may-refuse-thread for its volatile array).
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

static uint32_t lcg_state = 0x0DEC1A7Eu;
static uint32_t lcg() {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}

struct Pair { unsigned x; unsigned y; };
union Word { unsigned u; int i; };
typedef unsigned U96[96];
typedef const unsigned *CP;

// Shared objects of every declarator form, each written with a value of the
// logical block and read back by other threads after the barrier (thread
// mode refuses a volatile shared array where it would split warps).
// tfuse-expect: may-refuse-thread
#pragma tfuse coarsen
__global__ void decl_forms(const unsigned *in, int n, unsigned *out) {
  __shared__ const unsigned *ptrs[4];
  __shared__ const unsigned *base;
  __shared__ const unsigned (*rows)[4];
  __shared__ const unsigned (*row_ptrs[4])[4];
  __shared__ Pair pr;
  __shared__ Word w;
  __shared__ Pair pairs[4];
  __shared__ unsigned m[4][8];
  __shared__ U96 t;
  __shared__ CP cp;
  __shared__ volatile unsigned vv[4];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  unsigned k = tid % 4;
  t[tid] = (i < n ? in[i] : 3u) + blockIdx.x;
  if (tid < 4) {
    ptrs[k] = in + blockIdx.x * 4 + k;
    row_ptrs[k] = (const unsigned (*)[4])(in + blockIdx.x * 8 + 4 * k);
    pairs[k].x = blockIdx.x * 3u + k;
    m[k][1] = blockIdx.x * 5u + k;
    vv[k] = blockIdx.x ^ k;
  }
  if (tid == 0) {
    base = in + blockIdx.x;
    rows = (const unsigned (*)[4])(in + 2 * blockIdx.x);
    pr.x = blockIdx.x * 7u;
    w.u = blockIdx.x * 11u;
    cp = in + 3 * blockIdx.x;
  }
  __syncthreads();
  out[i] = *ptrs[k] + *base + (*rows)[1] + (*row_ptrs[k])[2] + pr.x + w.u + pairs[k].x + m[k][1] +
           t[blockDim.x - 1 - tid] + *cp + vv[k];
}

// Stores through a typedef'd and an `auto` pointer to a shared array.
// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void alias_ptrs(const unsigned *in, int n, unsigned *out) {
  typedef unsigned *UP;
  __shared__ unsigned sa[96];
  __shared__ unsigned sb[96];
  UP q = sa;
  auto r = sb;
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  q[tid] = (i < n ? in[i] : 1u) * 3u + blockIdx.x;
  r[tid] = blockIdx.x * 13u + tid;
  __syncthreads();
  out[i] = sa[blockDim.x - 1 - tid] ^ sb[(tid + 7) % blockDim.x];
}

// An array of pointers re-read at the owner's index (promoted to registers).
// tfuse-expect: accept
#pragma tfuse coarsen
__global__ void promoted_ptrs(const unsigned *in, int n, unsigned *out) {
  __shared__ const unsigned *sp[96];
  __shared__ const unsigned (*spa[96])[2];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sp[tid] = in + (i < n ? i : 0);
  spa[tid] = (const unsigned (*)[2])(in + 2 * (blockIdx.x + tid % 5));
  __syncthreads();
  out[i] = *sp[tid] + *sp[tid ^ 1] + (*spa[tid])[1] + (*spa[tid ^ 2])[0];
}

int main() {
  const int threads = 96, blocks[2] = {13, 37};
  const int nmax = 37 * threads;
  unsigned *h_in = new unsigned[nmax];
  for (int j = 0; j < nmax; j++)
    h_in[j] = lcg() % 100000u;
  unsigned *h_out = new unsigned[nmax];
  const size_t out_bytes = (size_t)nmax * sizeof(unsigned);
  unsigned *d_in, *d_out;
  CK(cudaMalloc(&d_in, nmax * sizeof(unsigned)), "malloc");
  CK(cudaMalloc(&d_out, out_bytes), "malloc");
  CK(cudaMemcpy(d_in, h_in, nmax * sizeof(unsigned), cudaMemcpyHostToDevice), "h2d");
  const char *labels[3][2] = {{"decl_forms_out13", "decl_forms_out37"},
                              {"alias_ptrs_out13", "alias_ptrs_out37"},
                              {"promoted_ptrs_out13", "promoted_ptrs_out37"}};
  for (int k = 0; k < 3; k++)
    for (int g = 0; g < 2; g++) {
      int n = blocks[g] * threads - 17;
      CK(cudaMemset(d_out, 0xAB, out_bytes), "memset");
      if (k == 0)
        decl_forms<<<blocks[g], threads>>>(d_in, n, d_out);
      else if (k == 1)
        alias_ptrs<<<blocks[g], threads>>>(d_in, n, d_out);
      else
        promoted_ptrs<<<blocks[g], threads>>>(d_in, n, d_out);
      CK(cudaGetLastError(), "launch");
      CK(cudaDeviceSynchronize(), "sync");
      CK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost), "d2h");
      print_hash(labels[k][g], h_out, (size_t)blocks[g] * threads * sizeof(unsigned));
    }
  return 0;
}
