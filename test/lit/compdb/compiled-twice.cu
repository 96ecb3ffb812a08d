// A file the database lists twice with flags the parser reads differently
// (two targets: -DWIDE and without) is rewritten with each set of flags,
// and written where both give the same text (k.cu: `real` is a typedef
// the rewrite keeps, so both builds compile the one file).  Where they
// differ (s.cu: with -DSYNC its kernel calls __syncthreads() under a
// condition and cannot be coarsened), an error naming the difference and
// nothing written; under -keep-going a warning, and that file is left as
// it is (the others are written).  Listed twice with the same flags a file
// is rewritten once, as usual.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t && sed -n '/^#ifdef WIDE/,/^\/\/ END K/p' %s > %t/k.cu
// RUN: sed -n '/^#ifdef SYNC/,$p' %s > %t/s.cu
// RUN: printf '__global__ void other(float *a) { a[threadIdx.x] = 1.0f; }\nvoid run_other(float *a) { other<<<1, 64>>>(a); }\n' > %t/other.cu
// RUN: printf '[{"directory": "%t", "file": "k.cu", "command": "nvcc -DWIDE -c k.cu"},\n {"directory": "%t", "file": "other.cu", "command": "nvcc -c other.cu"},\n {"directory": "%t", "file": "k.cu", "command": "nvcc -c k.cu"}]\n' > %t/compile_commands.json
// RUN: %tfuse -p %t -factor 2 -out-dir %t/agree 2>&1 | FileCheck %s --allow-empty --check-prefix=AGREE
// RUN: FileCheck %s --check-prefix=K < %t/agree/k.cu
// RUN: %nvcc-check -DWIDE %t/agree/k.cu
// RUN: %nvcc-check %t/agree/k.cu
// RUN: printf '[{"directory": "%t", "file": "k.cu", "command": "nvcc -DWIDE -c k.cu"},\n {"directory": "%t", "file": "other.cu", "command": "nvcc -c other.cu"},\n {"directory": "%t", "file": "s.cu", "command": "nvcc -c s.cu"},\n {"directory": "%t", "file": "s.cu", "command": "nvcc -DSYNC -c s.cu"}]\n' > %t/compile_commands.json
// RUN: not %tfuse -p %t -factor 2 -out-dir %t/out 2>&1 | FileCheck %s --check-prefix=DIFFER
// RUN: test ! -e %t/out
// RUN: %tfuse -p %t -factor 2 -all-kernels -keep-going -out-dir %t/kept 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: test ! -e %t/kept/s.cu
// RUN: test -e %t/kept/other.cu
// RUN: test -e %t/kept/k.cu
// RUN: printf '[{"directory": "%t", "file": "k.cu", "command": "nvcc -DWIDE -c k.cu"},\n {"directory": "%t", "file": "k.cu", "command": "nvcc -DWIDE -o k2.o -c k.cu"}]\n' > %t/compile_commands.json
// RUN: %tfuse -p %t -factor 2 -out-dir %t/same
// RUN: %nvcc-check -DWIDE %t/same/k.cu

// AGREE-NOT: compiled twice
// K: __global__ void k(unsigned int __tf_grid_x, real *a, int n) {
// DIFFER: s.cu:{{[0-9]+}}:{{[0-9]+}}: error: __syncthreads() under control that differs between the copies
// DIFFER: s.cu: error: '{{.*}}s.cu' is compiled twice with different flags ('-DSYNC' only in the second) and cannot be rewritten with the other command's: the files of {{.*}}s.cu are left unchanged
// DIFFER: tfuse: no file written
// KEPT: s.cu: warning: '{{.*}}s.cu' is compiled twice with different flags ('-DSYNC' only in the second) and is rewritten differently with the other command's: the files of {{.*}}s.cu are left unchanged
// KEPT: tfuse: 3 kernels: 2 coarsened, 1 left unchanged:

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
// END K

#ifdef SYNC
#define MAYBE_SYNC() __syncthreads()
#else
#define MAYBE_SYNC()
#endif

#pragma tfuse coarsen
__global__ void s(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] *= 2;
    MAYBE_SYNC();
  }
}

void run_s(float *a, int n) { s<<<(n + 127) / 128, 128>>>(a, n); }
