// -check in thread mode with a template kernel: the original's launch
// renames the kernel and keeps its template arguments (k__tf_orig<float>),
// the coarsened launch rescales the block, and a pointer to a template
// type is tracked (the runtime ignores it if T is const).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 2 -mode thread %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      /* tfuse -check: the original 'k', run first and compared with it when TFUSE_CHECK=1 */
// CHECK-NEXT: template <class T>
// CHECK-NEXT: __global__ void k__tf_orig(T *out, int n)
// CHECK:      __tf_check.track(out, "out");
// CHECK-NEXT: k__tf_orig<float><<<__tf_grid, __tf_block>>>(out, n);
// CHECK-NEXT: __tf_check.original_done();
// CHECK-NEXT: if (__tf_check.again()) { k__tf_orig<float><<<__tf_grid, __tf_block>>>({{.*}}); __tf_check.again_done(); }
// CHECK-NEXT: k<float><<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "k", "{{.*}}")>>>(out, n);

#pragma tfuse coarsen
template <class T>
__global__ void k(T *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = T(2) * out[i];
}

void host(float *out, int n) {
  k<float><<<(n + 255) / 256, 256>>>(out, n);
}
