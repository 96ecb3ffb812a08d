"""Writes a .cu file with N small __device__ helpers and one annotated
kernel that calls the first and the last: large enough that every table
the parser fills (symbols, files, declarations seen) grows many times."""
import sys

n = int(sys.argv[1])
out = ["#include <cstdio>"]
out += ["__device__ int h%d(int x) { return x + %d; }" % (i, i) for i in range(n)]
out += ["struct S%d { __device__ int get() const { return %d; } };" % (i, i) for i in range(n // 10)]
out += [
    "#pragma tfuse coarsen",
    "__global__ void k(int *a, int n) {",
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
    "  if (i < n) a[i] = h0(a[i]) + h%d(i) + S%d().get();" % (n - 1, n // 10 - 1),
    "}",
    "void launch(int *a, int n) { k<<<(n + 255) / 256, 256>>>(a, n); }",
]
print("\n".join(out))
