// A default argument that reads an index coarsening changes is spelled at
// the call per copy only when it means the same there: builtins, literals
// and arithmetic, at a call written in the file outside a macro.  Anything
// else is refused at the call, naming the parameter and what it reads.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

constexpr unsigned OFF = 3;
__device__ int named(unsigned b = blockIdx.x + OFF) { return (int)b; }
template <class T> __device__ T cast(T b = (T)blockIdx.x) { return b; }
__device__ unsigned ctaid() { unsigned r; asm("mov.u32 %0, %%ctaid.x;" : "=r"(r)); return r; }
__device__ int viaasm(unsigned b = ctaid()) { return (int)b; }
__device__ int plain(unsigned b = blockIdx.x) { return (int)b; }
#define PLAIN() plain()

#pragma tfuse coarsen
__global__ void k(int *out) {
  // CHECK: default-argument-limits.cu:[[@LINE+1]]:22: error: call to 'named' without the argument of 'b', whose default reads blockIdx.x, which coarsening changes; tfuse spells a default at the call only when it is builtins, literals and arithmetic; pass the argument explicitly
  out[threadIdx.x] = named() + named(2);
  // CHECK: default-argument-limits.cu:[[@LINE+1]]:22: error: call to 'cast' without the argument of 'b', whose default reads blockIdx.x
  out[threadIdx.x] = cast<int>();
  // CHECK: default-argument-limits.cu:[[@LINE+1]]:22: error: call to 'viaasm', which leaves out a default argument that reads blockIdx.x where no rewrite reaches; pass the argument explicitly
  out[threadIdx.x] = viaasm();
  // CHECK: default-argument-limits.cu:[[@LINE+1]]:22: error: call to 'plain' without arguments whose defaults read blockIdx.x, which coarsening changes; tfuse spells them at the call, but cannot rewrite this call (spell it `plain(...)`, outside a macro)
  out[threadIdx.x] = PLAIN();
}

int main() {
  int *b = 0;
  k<<<13, 96>>>(b);
}
