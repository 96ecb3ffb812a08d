// nvcc's __nv_atomic_* builtins and their memory orders and scopes, which
// clang's CUDA headers do not declare: tfuse's parse declares them (its
// compat header), and each call is a store through its pointers, emitted
// per copy and guarded like any atomic; a value the builtin writes back
// (compare-exchange's `expected`) makes that local per copy; the fence is
// a fence.  The output compiles with nvcc.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      out[i_0] = __nv_atomic_fetch_add(c, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
// CHECK-NEXT: if (__tf_ok_1) out[i_1] = __nv_atomic_fetch_add(c, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
// CHECK:      int v_0 = __nv_atomic_load_n(c, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
// CHECK-NEXT: int v_1 = TFUSE_GUARD(__tf_ok_1, __nv_atomic_load_n(c, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE));
// CHECK:      int expected_0 = v_0;
// CHECK-NEXT: int expected_1 = v_1;
// CHECK:      __nv_atomic_compare_exchange(c, &expected_0, &i_0, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED,
// CHECK:      if (__tf_ok_1) __nv_atomic_compare_exchange(c, &expected_1, &i_1,
// CHECK:      __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK);
// CHECK:      out[i_0 + 1] = expected_0;
#pragma tfuse coarsen
__global__ void k(int *c, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __nv_atomic_fetch_add(c, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  int v = __nv_atomic_load_n(c, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  int expected = v;
  __nv_atomic_compare_exchange(c, &expected, &i, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED,
                               __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK);
  out[i + 1] = expected;
}

void h(int *c, int *o) { k<<<4, 64>>>(c, o); }
