// A launch of a coarsened kernel that tfuse cannot rewrite (inside a host
// template whose kernel arguments clang leaves dependent, where an explicit
// specialization of the kernel might be the one instantiated) is an error:
// it would run the coarsened kernel on the original grid.  In thread mode, a
// kernel with no launch in the file is an error too (a launch elsewhere
// would run K times too many threads), unless -external-launches says the
// launches elsewhere are the user's; in block mode it is a warning, since
// the changed signature stops a stale launch from compiling.
// RUN: rm -f %t.out
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse -factor 2 -mode thread %t.in.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=TMPL
// RUN: test ! -e %t.out
// RUN: sed '/pragma tfuse/d' %t.in.cu > %t.lonely.cu
// RUN: not %tfuse -factor 2 -mode thread -kernel lonely %t.lonely.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %tfuse -factor 2 -mode thread -external-launches -kernel lonely %t.lonely.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=EXT
// RUN: %tfuse -factor 2 -kernel lonely %t.lonely.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=BLOCK

// NONE: error: no launch of 'lonely' in this file: in thread mode a launch elsewhere would run K times too many threads
// EXT: warning: no launch of 'lonely' in this file: each launch elsewhere must divide the block's x extent by 2
// BLOCK: warning: no launch of 'lonely' in this file: a launch elsewhere must pass the original grid extent first
#pragma tfuse coarsen
template <typename T> __global__ void k(T *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = i; }
template <> __global__ void k<float>(float *out, int n) { out[0] = n; }
__global__ void lonely(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
// TMPL: :[[@LINE+1]]:54: error: launch of coarsened kernel 'k' that tfuse cannot rewrite
template <typename T, int B> void run(T *o, int n) { k<T><<<(n + B - 1) / B, B>>>(o, n); }
void go(int *o, int n) { run<int, 128>(o, n); }
