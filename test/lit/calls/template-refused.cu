// In a template kernel, a call clang cannot resolve to an overload set is
// refused, naming it: a member of an object of dependent type, a member of
// a dependent type, a call through an object of dependent type, and a name
// that only argument-dependent lookup at the instantiation finds.
// RUN: rm -f %t.out
// RUN: not %tfuse -kernel k %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

template <typename T, typename Op>
__global__ void k(const T *a, T *c, Op op, T acc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = a[i];
// CHECK: template-refused.cu:[[@LINE+1]]:3: error: call to 'acc.add', a member of an object whose type depends on a template parameter: tfuse cannot tell which function it calls
  acc.add(i);
// CHECK: template-refused.cu:[[@LINE+1]]:8: error: call to 'T::st', whose declaration depends on a template parameter: tfuse cannot tell which function it calls
  v += T::st(i);
// CHECK: template-refused.cu:[[@LINE+1]]:8: error: call to 'op', a function pointer or function object: tfuse cannot see what it calls
  v += op(v);
// CHECK: template-refused.cu:[[@LINE+1]]:8: error: call to 'adl_only', which no declaration before the template names (found only where it is instantiated): tfuse cannot see what it calls
  v += adl_only(v);
  c[i] = v;
}
