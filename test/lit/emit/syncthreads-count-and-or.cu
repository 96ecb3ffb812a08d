// __syncthreads_count/and/or: a barrier that combines a predicate over the
// block.  Block mode: copy r's call over the physical block combines logical
// block r's predicate, so a call with a per-copy predicate is made per copy
// (K barriers, every thread making each), and one with a predicate the same
// for every copy is made once.  Thread mode: the logical block's threads are
// the pairs (physical thread, copy), so its count is the sum of the copies'
// counts, its and/or the and/or of theirs; the value is the same for every
// copy and the statement is emitted once.  In a helper (block mode) the
// helper's call per copy is copy r's barrier.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -kernel votes -kernel helper %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -kernel votes %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2,2 -dim x,y -mode thread -kernel votes %t.in.cu -o %t.xy.cu
// RUN: FileCheck --check-prefix=XY %s < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu

__device__ int any_of(bool p) { return __syncthreads_or(p); }

__global__ void votes(int *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool big = i < n && in[i] > 0.5f;
  int c = __syncthreads_count(big);
  int a = __syncthreads_and(big);
  int o = __syncthreads_or(threadIdx.x < 3);
  if (__syncthreads_or(i == 5))
    c += 1000;
  if (i < n)
    out[i] = c + 10000 * a + 100000 * o;
}

__global__ void helper(int *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int h = any_of(i < n && in[i] > 0.5f);
  if (i < n)
    out[i] = h;
}

int main() {
  int *o = 0;
  float *in = 0;
  votes<<<dim3(4, 2), dim3(64, 2)>>>(o, in, 256);
  helper<<<4, 64>>>(o, in, 256);
}

// BLOCK-LABEL: void votes(
// BLOCK:      int c_0 = __syncthreads_count(big_0);
// BLOCK-NEXT: int c_1 = __syncthreads_count(big_1);
// BLOCK-NEXT: int a_0 = __syncthreads_and(big_0);
// BLOCK-NEXT: int a_1 = __syncthreads_and(big_1);
// BLOCK-NEXT: int o = __syncthreads_or(threadIdx.x < 3);
// BLOCK-NEXT: const bool __tf_p1_0 = (__syncthreads_or(i_0 == 5));
// BLOCK-NEXT: const bool __tf_p1_1 = __tf_ok_1 && (__syncthreads_or(i_1 == 5));
// BLOCK-LABEL: void helper(
// BLOCK:      int h_0 = any_of(i_0 < n && in[i_0] > 0.5f);
// BLOCK-NEXT: int h_1 = TFUSE_GUARD(__tf_ok_1, any_of(i_1 < n && in[i_1] > 0.5f));

// THREAD:      int c = (__syncthreads_count(big_0) + __syncthreads_count(big_1));
// THREAD-NEXT: int a = (!!__syncthreads_and(big_0) & !!__syncthreads_and(big_1));
// THREAD-NEXT: int o = (!!__syncthreads_or((threadIdx.x) < 3) | !!__syncthreads_or((threadIdx.x + 1 * blockDim.x) < 3));
// THREAD-NEXT: if ((!!__syncthreads_or(i_0 == 5) | !!__syncthreads_or(i_1 == 5))) {
// THREAD-NEXT: c += 1000;
// THREAD:      if (__tf_p1_0) out[i_0] = c + 10000 * a + 100000 * o;

// Along x and y the predicate varies along x only: each (rx, ry) copy is a
// quarter of the logical block, so big_x0 and big_x1 are each counted twice.
// XY: int c = (__syncthreads_count(big_x0) + __syncthreads_count(big_x1) + __syncthreads_count(big_x0) + __syncthreads_count(big_x1));
