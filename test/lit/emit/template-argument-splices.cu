// A statement replicated per copy keeps its template arguments whole: a
// call's (`shifted<int, B>(i)`), a cast's (`static_cast<A>(i)`), nested
// templates closed by `>>` (`Id<Id<int>>`) and a shift `>>` beside
// renamed variables; a guarded copy in block mode too.  Both modes, each
// output compiled by nvcc.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefixes=BOTH,THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck %s --check-prefixes=BOTH,BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu

// BOTH-LABEL: __global__ void k(
// BOTH:       box_0.v[0] = static_cast<A>(i_0);
// THREAD-NEXT: box_1.v[0] = static_cast<A>(i_1);
// BLOCK-NEXT:  if (__tf_ok_1) box_1.v[0] = static_cast<A>(i_1);
// BOTH:       box_0.v[1] = static_cast<typename Id<typename Id<A>::type>::type>(shifted<int, B>(i_0));
// THREAD-NEXT: box_1.v[1] = static_cast<typename Id<typename Id<A>::type>::type>(shifted<int, B>(i_1));
// BLOCK-NEXT:  if (__tf_ok_1) box_1.v[1] = static_cast<typename Id<typename Id<A>::type>::type>(shifted<int, B>(i_1));
// BOTH:       int j_0 = i_0>>1;
// BOTH:       int j_1 = i_1>>1;
// BOTH:       Id<Id<int>> w_0 = {{[{]}}{j_0}};
// BOTH:       Id<Id<int>> w_1 = {{[{]}}{j_1}};
// BOTH:       out[i_0] = box_0.v[0] + box_0.v[1] + (A)shifted<Id<Id<int>::type>::type, 1>(w_0.v.v);
// BOTH:       out[i_1] = box_1.v[0] + box_1.v[1] + (A)shifted<Id<Id<int>::type>::type, 1>(w_1.v.v);

template <typename T, int N> struct Box { T v[N]; };
template <typename T> struct Id { typedef T type; T v; };
template <typename T, int S> __device__ T shifted(T x) { return x >> S; }

#pragma tfuse coarsen
template <typename A, int B>
__global__ void k(A *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Box<A, 2> box;
  box.v[0] = static_cast<A>(i);
  box.v[1] = static_cast<typename Id<typename Id<A>::type>::type>(shifted<int, B>(i));
  int j = i>>1;
  Id<Id<int>> w = {{j}};
  if (i < n)
    out[i] = box.v[0] + box.v[1] + (A)shifted<Id<Id<int>::type>::type, 1>(w.v.v);
}

int main() {
  float *d = nullptr;
  k<float, 3><<<4, 64>>>(d, 256);
  return 0;
}
