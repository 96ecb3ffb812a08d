// A file the database lists twice with flags the parser reads differently
// (two targets: -DWIDE and without) is parsed once by tfuse, so its rewrite
// could be wrong for one of the commands: an error naming the difference,
// nothing written; under -keep-going a warning, and the file is left as it
// is (the database's other files are rewritten).  Listed twice with the
// same flags it is rewritten as usual.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: printf '__global__ void other(float *a) { a[threadIdx.x] = 1.0f; }\nvoid run_other(float *a) { other<<<1, 64>>>(a); }\n' > %t/other.cu
// RUN: printf '[{"directory": "%t", "file": "k.cu", "command": "nvcc -DWIDE -c k.cu"},\n {"directory": "%t", "file": "other.cu", "command": "nvcc -c other.cu"},\n {"directory": "%t", "file": "k.cu", "command": "nvcc -c k.cu"}]\n' > %t/compile_commands.json
// RUN: not %tfuse -p %t -factor 2 -out-dir %t/out 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: test ! -e %t/out
// RUN: %tfuse -p %t -factor 2 -all-kernels -keep-going -out-dir %t/kept 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: test ! -e %t/kept/k.cu
// RUN: test -e %t/kept/other.cu
// RUN: printf '[{"directory": "%t", "file": "k.cu", "command": "nvcc -DWIDE -c k.cu"},\n {"directory": "%t", "file": "k.cu", "command": "nvcc -DWIDE -o k2.o -c k.cu"}]\n' > %t/compile_commands.json
// RUN: %tfuse -p %t -factor 2 -out-dir %t/same
// RUN: %nvcc-check -DWIDE %t/same/k.cu

// TWICE: tfuse: error: '{{.*}}k.cu' is compiled twice with different flags ('-DWIDE' only in the first): tfuse parses a file once, and its rewrite could be wrong for the other command
// KEPT: tfuse: warning: '{{.*}}k.cu' is compiled twice with different flags ('-DWIDE' only in the first): tfuse parses a file once, and its rewrite could be wrong for the other command; it is left unchanged

#ifdef WIDE
typedef double real;
#else
typedef float real;
#endif

#pragma tfuse coarsen
__global__ void k(real *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2;
}

void run(real *a, int n) { k<<<(n + 127) / 128, 128>>>(a, n); }
