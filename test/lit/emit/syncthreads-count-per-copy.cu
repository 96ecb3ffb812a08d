// Thread mode: a statement written once per copy (it stores a value that
// differs between the copies) that holds __syncthreads_count/and/or
// computes the copies' combination once, before the copies' statements,
// into a temporary they read: each copy's predicate is that of the
// original, evaluated before any copy's store, and every thread makes the
// K calls once.  Along two dimensions, the four copies' calls.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2,2 -dim x,y -mode thread %t.in.cu -o %t.xy.cu
// RUN: FileCheck --check-prefix=XY %s < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu

// THREAD-LABEL: __global__ void per_copy(
// THREAD:      const auto __tf_b1 = (__syncthreads_count(acc_0 % 5u != 0u) + __syncthreads_count(acc_1 % 5u != 0u)); /* tfuse: '__syncthreads_count' of the copies, once */
// THREAD-NEXT: acc_0 = acc_0 * 5u + (unsigned)__tf_b1;
// THREAD-NEXT: acc_1 = acc_1 * 5u + (unsigned)__tf_b1;
// THREAD-NEXT: const auto __tf_b2 = (!!__syncthreads_or(acc_0 > 7u) | !!__syncthreads_or(acc_1 > 7u)); /* tfuse: '__syncthreads_or' of the copies, once */
// THREAD-NEXT: int b_0 = in[i_0] + __tf_b2;
// THREAD-NEXT: int b_1 = in[i_1] + __tf_b2;
// THREAD-NEXT: const auto __tf_b3 = (!!__syncthreads_and(b_0 > 0) & !!__syncthreads_and(b_1 > 0));
// THREAD-NEXT: out[i_0] = acc_0 + b_0 + __tf_b3;
// THREAD-NEXT: out[i_1] = acc_1 + b_1 + __tf_b3;

// XY-LABEL: __global__ void per_copy(
// XY: const auto __tf_b1 = (__syncthreads_count(acc_x0y0 % 5u != 0u) + __syncthreads_count(acc_x1y0 % 5u != 0u) + __syncthreads_count(acc_x0y1 % 5u != 0u) + __syncthreads_count(acc_x1y1 % 5u != 0u));
// XY-NEXT: acc_x0y0 = acc_x0y0 * 5u + (unsigned)__tf_b1;
#pragma tfuse coarsen
__global__ void per_copy(int *out, const int *in) {
  int i = (blockIdx.y * blockDim.y + threadIdx.y) * 1024 + blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = in[i];
  acc = acc * 5u + (unsigned)__syncthreads_count(acc % 5u != 0u);
  int b = in[i] + __syncthreads_or(acc > 7u);
  out[i] = acc + b + __syncthreads_and(b > 0);
}
void run(int *o, const int *in, int n) { per_copy<<<dim3(n / 64, 4), dim3(32, 2)>>>(o, in); }
