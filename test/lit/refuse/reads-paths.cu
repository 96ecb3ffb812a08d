// More paths by which code reaches the coordinates, each refused where no
// rewrite reaches it: a builtin copied as a whole (in the kernel, in a
// helper), a free operator that reads one (no call text to point at a
// clone), a lambda called in a helper, and a replicated shared array whose
// address is stored where tfuse cannot follow it.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

struct V { int x; };
__device__ V operator+(V a, V b) { return V{a.x + b.x + (int)blockIdx.x}; }
__device__ int viaLambda(int v) { auto f = [](int q) { return q + (int)blockIdx.x; }; return f(v); }
__device__ unsigned flat() { uint3 b = blockIdx; return b.x; }
__device__ int *g_ptr;

#pragma tfuse coarsen
__global__ void k(int *out) {
  __shared__ int sh[96];
  // CHECK: reads-paths.cu:[[@LINE+1]]:13: error: 'blockIdx' used as a whole: tfuse substitutes its components only; use blockIdx.x/.y/.z
  uint3 b = blockIdx;
  V a{1}, c{2};
  // CHECK: reads-paths.cu:[[@LINE+1]]:9: error: call to 'operator+', which reads the coarsened thread or block index and so is called per copy through a clone, but tfuse cannot rewrite this call
  V d = a + c;
  sh[threadIdx.x] = (int)b.x;
  // CHECK: reads-paths.cu:[[@LINE+1]]:11: error: the address of __shared__ 'sh' escapes
  g_ptr = sh;
  // CHECK: reads-paths.cu:[[@LINE+2]]:54: error: 'viaLambda' calls 'operator()', whose body tfuse cannot see
  // CHECK: reads-paths.cu:[[@LINE+1]]:74: error: 'flat' reads 'blockIdx' as a whole, which coarsening changes; pass the value as an argument instead
  out[blockIdx.x * blockDim.x + threadIdx.x] = d.x + viaLambda(3) + (int)flat();
}

int main() {
  int *o = 0;
  k<<<13, 96>>>(o);
}
