// The cache-hinted loads and stores of nvcc's sm_32_intrinsics.h that
// clang's CUDA headers leave out (__ldca, __ldlu, __stcg, __stcs, __stwb;
// __ldcg, __ldcs, __ldcv, __stwt are clang's too), on scalars and vectors:
// tfuse's parser sees declarations of them (its compat header, parsed
// only), the effect table knows them as loads and stores through their
// pointers, and the kernel is coarsened with each call replicated.  The
// output includes nothing more: nvcc compiles it with its own headers.
// REQUIRES: nvcc
// RUN: sed "s#^//.*##" %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// CHECK-NOT: template <class T> __device__ T __ldca
// CHECK-LABEL: __global__ void hints(
// CHECK: __stcg(o + i_0, __ldca(in + i_0));
// CHECK-NEXT: if (__tf_ok_1) __stcg(o + i_1, __ldca(in + i_1));
// CHECK: __stcs(o + i_0, __ldlu(in + i_0));
// CHECK: __stwb(o + i_0, __ldcg(in + i_0) + __ldcs(in + i_0) + __ldcv(in + i_0));
// CHECK: __stwt(o + i_0, 1.0f);
// CHECK: __stcg(o4 + i_0, __ldca(i4 + i_0));
// CHECK: __stcs(o2 + i_0, __ldlu(i2 + i_0));
// CHECK: __stwb(oi + i_0, __ldca(ii + i_0));
// CHECK-NEXT: if (__tf_ok_1) __stwb(oi + i_1, __ldca(ii + i_1));

#pragma tfuse coarsen
__global__ void hints(float *o, const float *in, float4 *o4, const float4 *i4, double2 *o2, const double2 *i2,
                      int *oi, const int *ii) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcg(o + i, __ldca(in + i));
  __stcs(o + i, __ldlu(in + i));
  __stwb(o + i, __ldcg(in + i) + __ldcs(in + i) + __ldcv(in + i));
  __stwt(o + i, 1.0f);
  __stcg(o4 + i, __ldca(i4 + i));
  __stcs(o2 + i, __ldlu(i2 + i));
  __stwb(oi + i, __ldca(ii + i));
}

int main() {
  hints<<<4, 32>>>(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  return 0;
}
