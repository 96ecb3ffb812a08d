// A store into an array member of a local object, `x.v[0] = ...`, writes the
// object: a varying value makes it varying, so each copy has its own (it was
// once one object shared by the copies, a silent miscompile).  Rows of
// member arrays, members of members and objects of a template's dependent
// type (whose member types tfuse cannot tell) alike.
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -dump-after=uniform %t.in.cu | FileCheck %s --check-prefix=DUMP
// RUN: %tfuse -factor 2 -mode block -o %t.block.cu %t.in.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -o %t.thread.cu %t.in.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %nvcc-check %t.thread.cu
// REQUIRES: nvcc

// DUMP-LABEL: FUNC 'plain'
// DUMP: VAR 'x' <{{[0-9:]+}}> varying [varying]
// DUMP-LABEL: FUNC 'rows'
// DUMP: VAR 'x' <{{[0-9:]+}}> varying [varying]
// DUMP-LABEL: FUNC 'nested'
// DUMP: VAR 'x' <{{[0-9:]+}}> varying [varying]
// DUMP-LABEL: FUNC 'dependent'
// DUMP: VAR 'x' <{{[0-9:]+}}> varying [varying]
// DUMP-LABEL: FUNC 'same'
// DUMP: VAR 'x' <{{[0-9:]+}}> [uniform]

struct S { float v[4]; };
struct M { float v[2][3]; };
struct N { S in; };
template <class E> struct P { E v[4]; };

// BLOCK-LABEL: void plain(
// BLOCK: S x_0;
// BLOCK: S x_1;
// BLOCK: x_0.v[0] = a[i_0];
// BLOCK: if (__tf_ok_1) x_1.v[0] = a[i_1];
// BLOCK: a[i_0] = x_0.v[0] + 1;
// BLOCK: if (__tf_ok_1) a[i_1] = x_1.v[0] + 1;
// THREAD-LABEL: void plain(
// THREAD: S x_0;
// THREAD: S x_1;
// THREAD: x_0.v[0] = a[i_0];
// THREAD: x_1.v[0] = a[i_1];
#pragma tfuse coarsen
__global__ void plain(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  S x;
  x.v[0] = a[i];
  a[i] = x.v[0] + 1;
}

// BLOCK-LABEL: void rows(
// BLOCK: M x_0;
// BLOCK: M x_1;
#pragma tfuse coarsen
__global__ void rows(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  M x;
  x.v[1][2] = a[i];
  a[i] = x.v[1][2] * 2;
}

// BLOCK-LABEL: void nested(
// BLOCK: N x_0;
// BLOCK: N x_1;
#pragma tfuse coarsen
__global__ void nested(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  N x;
  x.in.v[3] = a[i];
  a[i] = x.in.v[3] - 1;
}

// BLOCK-LABEL: void dependent(
// BLOCK: P<E> x_0;
// BLOCK: P<E> x_1;
#pragma tfuse coarsen
template <class E> __global__ void dependent(E *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  P<E> x;
  x.v[0] = a[i];
  a[i] = x.v[0] + 1;
}

// A value every copy stores alike: one object.
// BLOCK-LABEL: void same(
// BLOCK: S x;
// BLOCK-NOT: S x_1;
#pragma tfuse coarsen
__global__ void same(float *a, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  S x;
  x.v[0] = s;
  a[i] = x.v[0];
}

void host(float *a, int n) {
  plain<<<n / 128, 128>>>(a);
  rows<<<n / 128, 128>>>(a);
  nested<<<n / 128, 128>>>(a);
  dependent<float><<<n / 128, 128>>>(a);
  same<<<n / 128, 128>>>(a, 2.0f);
}
