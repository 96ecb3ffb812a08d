/* tfuse check runtime: the device half of the comparison (check.cpp loads
 * it as PTX, from compare_ptx.h; scripts/gen-compare-ptx.sh makes that
 * header from this file).  Plain CUDA C, no includes: it is compiled on its
 * own with `nvcc -ptx -arch=compute_75`, never into a program.
 *
 * tfuse_check_compare(a, b, n, first): compares the n bytes at a with the
 * n bytes at b.  Where both a and b are 8-byte aligned, as whole 8-byte
 * words, then the bytes after the last whole word one by one; else byte by
 * byte.  Lowers *first (atomically) to the byte offset of the first
 * differing word (or byte, where compared bytewise); the caller sets *first
 * to ~0 before the launch, so ~0 after it means the two are equal.  Any
 * grid and block shape: each thread strides over the grid, stops at the
 * first difference it sees, and that is its lowest. */

extern "C" __global__ void tfuse_check_compare(const unsigned char *__restrict__ a,
                                               const unsigned char *__restrict__ b,
                                               unsigned long long n, unsigned long long *first) {
  const unsigned long long none = ~0ull;
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long found = none;
  unsigned long long words = 0;
  if ((((unsigned long long)a | (unsigned long long)b) & 7) == 0) {
    const unsigned long long *wa = (const unsigned long long *)a;
    const unsigned long long *wb = (const unsigned long long *)b;
    words = n / 8;
    for (unsigned long long w = i; w < words; w += stride)
      if (wa[w] != wb[w]) {
        found = 8 * w;
        break;
      }
  }
  if (found == none)
    for (unsigned long long k = 8 * words + i; k < n; k += stride)
      if (a[k] != b[k]) {
        found = k;
        break;
      }
  if (found != none)
    atomicMin(first, found);
}
