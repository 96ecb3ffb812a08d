// A function template that calls another overload of its own name
// (`reduce<f>(v)` calling `reduce<f>(v, false, 0.0f)`) is not recursion:
// a dependent call keeps only the overloads that take as many arguments
// (defaults and `...` counted).  Overloads that do call each other are.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.block.cu 2> %t.block.err
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: FileCheck --check-prefix=REC %s < %t.block.err
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.in.cu -o %t.thread.cu 2> %t.thread.err
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: FileCheck --check-prefix=REC %s < %t.thread.err
// RUN: %nvcc-check %t.thread.cu

// BLOCK-LABEL: __global__ void k(
// BLOCK:      int s_0 = sum<4>(in[i_0]);
// BLOCK-NEXT: int s_1 = TFUSE_GUARD(__tf_ok_1, sum<4>(in[i_1]));

// THREAD: /* tfuse: 'sum' for one copy of 'k' (the copy is __tf_r) */
// THREAD: /* tfuse: 'sum' for one copy of 'k' (the copy is __tf_r) */
// THREAD-LABEL: __global__ void k(
// THREAD:      int s_0 = sum__tf_k<4>(0, in[i_0]);
// THREAD-NEXT: int s_1 = sum__tf_k<4>(1, in[i_1]);

// REC: :[[#@LINE+10]]:69: warning: kernel 'rec' left unchanged: recursive call to 'ping': a coarsened kernel cannot recurse
// REC-NOT: kernel 'k' left unchanged
template <int N> __device__ int sum(int v, int w, int scale = 1) { return (v + w + threadIdx.x % N) * scale; }
template <int N> __device__ int sum(int v) { return sum<N>(v, N); }
__global__ void k(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = sum<4>(in[i]);
  out[i] = s;
}
template <int N> __device__ int ping(int v);
template <int N> __device__ int ping(int v, int w) { return v > 0 ? ping<N>(v - w) : w; }
template <int N> __device__ int ping(int v) { return ping<N>(v, 1); }
__global__ void rec(int *out) { out[threadIdx.x] = ping<1>(out[threadIdx.x]); }
int main() { k<<<2, 64>>>(0, 0); rec<<<1, 32>>>(0); }
