// __syncthreads_count/and/or follow the barrier rules: refused under
// control that differs between the copies (thread mode) or between the
// threads of one logical block (block mode, a return some threads take
// included); thread mode combines the copies' calls only in the kernel,
// with predicates free of side effects.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck --check-prefix=THREAD %s
// RUN: not %tfuse -factor 2 -mode block %s -o %t.out 2>&1 | FileCheck --check-prefix=BLOCK %s
// RUN: test ! -e %t.out

__device__ int count_of(bool p) { return __syncthreads_count(p); }

#pragma tfuse coarsen
__global__ void limits(int *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = 0;
  // THREAD: syncthreads-count-limits.cu:[[@LINE+1]]:11: error: 'count_of' calls '__syncthreads_count': in thread mode each copy's call of the helper would combine only that copy's threads; call it in the kernel, where tfuse combines the copies
  int h = count_of(in[i] > 0.f);
  // THREAD: syncthreads-count-limits.cu:[[@LINE+1]]:11: error: __syncthreads_or: thread mode writes one call per copy, so its predicate must have no side effects
  int o = __syncthreads_or(c++ > 0);
  if (i < 32)
    // THREAD: syncthreads-count-limits.cu:[[@LINE+2]]:9: error: __syncthreads_count() under control that differs between the copies: the merged threads would need different barriers
    // BLOCK: syncthreads-count-limits.cu:[[@LINE+1]]:9: error: __syncthreads_count() under control that differs between the copies: the merged blocks would need different barriers
    c = __syncthreads_count(in[i] > 1.f);
  if (i >= n)
    return;
  // THREAD: syncthreads-count-limits.cu:[[@LINE+2]]:11: error: __syncthreads_and after a return that only some copies take: the merged thread would still combine the returned copies' predicates
  // BLOCK: syncthreads-count-limits.cu:[[@LINE+1]]:11: error: __syncthreads_and after a return that only some copies take: the merged block would still combine the returned copies' predicates
  int a = __syncthreads_and(in[i] > 2.f);
  out[i] = c + h + o + a;
}

// Thread mode computes the copies' combination once, before a statement
// written once per copy (acc differs between the copies), into a temporary
// (emit/syncthreads-count-per-copy.cu); in a branch of `?:`, which
// evaluates the call for some copies only, it cannot, nor in a declaration of two
// variables, where the predicate may read the first.  Block mode: one call
// per copy, each in its own copy's statement.
#pragma tfuse coarsen
__global__ void per_copy(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = in[i];
  // THREAD: syncthreads-count-limits.cu:[[@LINE+1]]:36: error: __syncthreads_count in a statement that thread mode writes once per copy (it stores a value that differs between the copies), where tfuse cannot compute the copies' combination once before it (in a branch of ?:, or right of && or ||, which may not evaluate it); assign the call to a variable of its own first
  acc = acc > 3u ? acc + (unsigned)__syncthreads_count(acc % 5u != 0u) : acc;
  // THREAD: syncthreads-count-limits.cu:[[@LINE+1]]:30: error: __syncthreads_or in a statement that thread mode writes once per copy (it stores a value that differs between the copies), where tfuse cannot compute the copies' combination once before it (a declaration of several variables); assign the call to a variable of its own first
  int x = in[i] + 1, y = x + __syncthreads_or(x > 2);
  out[i] = acc + y;
}

void run(int *o, const float *in, int n) { limits<<<n / 64, 64>>>(o, in, n); }
void run2(int *o, const int *in, int n) { per_copy<<<n / 64, 64>>>(o, in); }
