// Thread mode combines the copies' __syncthreads_count/and/or calls, each
// evaluating its copy's predicate once; a predicate may call a helper that
// writes nothing (effects.c), and one that writes stays refused.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -kernel votes %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: not %tfuse -factor 2 -mode thread -kernel writes %t.in.cu -o %t.w.cu 2>&1 | FileCheck --check-prefix=WRITES %s

__device__ unsigned int mix(unsigned int a) { return a * 2654435761u ^ (a >> 3); }
__device__ int bump(int *c) { return ++*c; }

__global__ void votes(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = __syncthreads_count(mix(threadIdx.x) % 3u == 0u);
  if (i < n)
    out[i] = c;
}

__global__ void writes(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = 0;
  int c = __syncthreads_count(bump(&t) > 0);
  if (i < n)
    out[i] = c + t;
}

int main() {
  votes<<<4, 64>>>(0, 256);
  writes<<<4, 64>>>(0, 256);
}

// THREAD-LABEL: void votes(
// THREAD: int c = (__syncthreads_count(mix((threadIdx.x)) % 3u == 0u) + __syncthreads_count(mix((threadIdx.x + 1 * blockDim.x)) % 3u == 0u));
// WRITES: error: __syncthreads_count: thread mode writes one call per copy, so its predicate must have no side effects
