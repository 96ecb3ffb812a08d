// Class-type locals are written by copy assignment (an operator= call), by
// non-const methods and member operators, and through reference arguments
// to a member: each copy then has its own object.  The implicit copy
// assignment copies member by member, so a dead copy's `best_1 = cur_1`
// (its own local) needs no guard, like `best_1.a = 0`.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      uint3 v_0;
// CHECK-NEXT: uint3 v_1;
// CHECK:      v_0 = keys[i_0];
// CHECK-NEXT: if (__tf_ok_1) v_1 = keys[i_1];
// CHECK:      acc_0.add(v_0.x);
// CHECK-NEXT: if (__tf_ok_1) acc_1.add(v_1.x);
// CHECK:      acc_0 += 2;
// CHECK-NEXT: if (__tf_ok_1) acc_1 += 2;
// CHECK:      bump(s_0.count);
// CHECK-NEXT: if (__tf_ok_1) bump(s_1.count);
// CHECK:      best_0 = cur_0;
// CHECK-NEXT: best_1 = cur_1;

struct Acc {
  int s;
  __device__ void add(int v) { s += v; }
  __device__ Acc &operator+=(int v) { s += v; return *this; }
};
struct S { int count; };
struct P { int a, b; };
__device__ void bump(int &r) { r++; }

#pragma tfuse coarsen
__global__ void k(int *out, const uint3 *keys, const P *ps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint3 v;
  v = keys[i];
  Acc acc;
  acc.s = 0;
  acc.add(v.x);
  acc += 2;
  S s;
  s.count = 0;
  bump(s.count);
  P best, cur;
  best.a = 0;
  best.b = 0;
  cur = ps[i];
  best = cur;
  out[i] = acc.s + s.count + best.a;
}

void run(int *out, const uint3 *keys, const P *ps, int n) { k<<<n, 64>>>(out, keys, ps); }
