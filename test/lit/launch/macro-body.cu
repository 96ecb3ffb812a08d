// A launch written in a macro's body has no text of its own at the use:
// tfuse expands each use whose expansion launches a coarsened kernel (with
// the nested macros it names) and rewrites the launch in the expansion. The
// #define that still holds the launch's text is then harmless, since no use
// of it is left; a launch written in another macro's argument (TIME) is
// rewritten in place and does not count as a use of that #define. A use
// tfuse cannot expand (the body pastes tokens) keeps the refusal.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -kernel k %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread -kernel k %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: sed 's/^  RUN_BOTH(p, n);$/  PASTED(k)<<<4, 64>>>(p, n);/' %t.in.cu > %t.pasted.cu
// RUN: not %tfuse -factor 2 -kernel k %t.pasted.cu -o %t.out 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: switch(which) { case 0 : { const dim3 __tf_grid = (4); k <<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64 >>> (::tfuse_rt::grid_extent(__tf_grid, 0), p, n); } break; case 1 : { const dim3 __tf_grid = (8); k <<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64 >>> (::tfuse_rt::grid_extent(__tf_grid, 0), p, n); } break; };
// CHECK: TIME([&] { const dim3 __tf_grid = (2); return k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 64>>>(::tfuse_rt::grid_extent(__tf_grid, 0), p, n); }());
// ERR: error: launch of coarsened kernel 'k' that tfuse cannot rewrite

#define LAUNCH(G, p, n) k<<<G, 64>>>(p, n)
#define RUN_BOTH(p, n) switch (which) { case 0: LAUNCH(4, p, n); break; case 1: LAUNCH(8, p, n); break; }
#define PASTED(x) x##_alias
#define k_alias k
#define TIME(...) do { __VA_ARGS__; } while (0)

__global__ void k(float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] += 1.0f;
}

void host(float *p, int n, int which) {
  RUN_BOTH(p, n);
  TIME(k<<<2, 64>>>(p, n));
}

int main() {
  host(nullptr, 5, 0);
  return 0;
}
