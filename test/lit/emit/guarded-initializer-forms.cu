// Declarations under a per-copy predicate whose initializers load through a
// copy-dependent address: every form is guarded, not refused.
//   T v(e)         the expression inside the parentheses is wrapped;
//   T v(args)      a constructor: each argument that loads is wrapped, the
//                  constructor itself runs for every copy (it writes only v);
//   T v = T(args)  likewise (T may have no zero value to fall back to);
//   T v{e}, = {..} each element of the braced list is wrapped;
//   T v = MACRO(e) the whole macro invocation is wrapped (its text is the
//                  whole initializer);
//   T v = p[i]     a class copied from memory: the copy is implied, not
//                  written, so the expression is wrapped whole.
// Each copy's declaration appears once; nothing is reported twice.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -mode thread %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      if (__tf_p1_0 || __tf_p1_1) {
// CHECK-NEXT: float v_0(TFUSE_GUARD(__tf_p1_0, a[i_0]));
// CHECK-NEXT: float v_1(TFUSE_GUARD(__tf_p1_1, a[i_1]));
// CHECK-NEXT: P p_0(TFUSE_GUARD(__tf_p1_0, a[i_0]), 2.0f);
// CHECK-NEXT: P p_1(TFUSE_GUARD(__tf_p1_1, a[i_1]), 2.0f);
// CHECK-NEXT: P q_0 = P(TFUSE_GUARD(__tf_p1_0, a[i_0]), 1.0f);
// CHECK-NEXT: P q_1 = P(TFUSE_GUARD(__tf_p1_1, a[i_1]), 1.0f);
// CHECK-NEXT: float w_0{TFUSE_GUARD(__tf_p1_0, a[i_0])};
// CHECK-NEXT: float w_1{TFUSE_GUARD(__tf_p1_1, a[i_1])};
// CHECK-NEXT: float arr_0[2][2] = {{[{][{]}}TFUSE_GUARD(__tf_p1_0, a[i_0]), 1.0f}, {0.0f, TFUSE_GUARD(__tf_p1_0, a[i_0 + 1])}};
// CHECK-NEXT: float arr_1[2][2] = {{[{][{]}}TFUSE_GUARD(__tf_p1_1, a[i_1]), 1.0f}, {0.0f, TFUSE_GUARD(__tf_p1_1, a[i_1 + 1])}};
// CHECK-NEXT: float m_0 = TFUSE_GUARD(__tf_p1_0, LD(a, i_0));
// CHECK-NEXT: float m_1 = TFUSE_GUARD(__tf_p1_1, LD(a, i_1));
// CHECK-NEXT: int4 y_0 = TFUSE_GUARD(__tf_p1_0, reinterpret_cast<const int4 *>(a)[i_0]);
// CHECK-NEXT: int4 y_1 = TFUSE_GUARD(__tf_p1_1, reinterpret_cast<const int4 *>(a)[i_1]);
// CHECK-NEXT: if (__tf_p1_0) c[i_0] =
// CHECK-NEXT: if (__tf_p1_1) c[i_1] =

#define LD(p, j) (p)[j]
struct P {
  float a, b;
  __device__ P(float x, float y) : a(x), b(y) {}
};

#pragma tfuse coarsen
__global__ void k(const float *a, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v(a[i]);
    P p(a[i], 2.0f);
    P q = P(a[i], 1.0f);
    float w{a[i]};
    float arr[2][2] = {{a[i], 1.0f}, {0.0f, a[i + 1]}};
    float m = LD(a, i);
    int4 y = reinterpret_cast<const int4 *>(a)[i];
    c[i] = v + p.a + q.b + w + arr[0][0] + arr[1][1] + m + y.x;
  }
}

int main() {
  k<<<10, 128>>>(nullptr, nullptr, 5);
  return 0;
}
