// -check in block mode: the original kernel is kept after the coarsened one
// as k__tf_orig (a prototype gets a renamed copy too), the check runtime's
// header follows the prelude, and the launch runs, with checking on, the
// original then the coarsened kernel between the runtime's calls.  Grid and
// block are evaluated once; an argument with a side effect (next()) goes
// into a local so both launches see one value; shared memory size and
// stream are kept.  Only pointers to non-const are tracked.  With checking
// off, or while the launch's stream is captured into a graph
// (check_on(stream)), the else branch is the usual coarsened launch.  With
// the twice mode of docs/check.md the original runs again (again()).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 4 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: #ifndef TFUSE_CHECK_H
// CHECK: __global__ void k__tf_orig(float *out, const float *in, int n, int seed);
// CHECK-NEXT: __global__ void k(unsigned int __tf_grid_x, float *out, const float *in, int n, int seed);
// CHECK:      int next();
// CHECK:      { const dim3 __tf_grid = (g); const dim3 __tf_block = (dim3(128));
// CHECK-NEXT:   if (::tfuse_rt::check_on((s))) {
// CHECK-NEXT:     const size_t __tf_smem = (0);
// CHECK-NEXT:     const cudaStream_t __tf_stream = (s);
// CHECK-NEXT:     auto __tf_a3 = (next());
// CHECK-NEXT:     ::tfuse_rt::Check __tf_check("k", "{{.*}}.in.cu:[[# @LINE + 23]]", __tf_stream);
// CHECK-NEXT:     __tf_check.track(out, "out");
// CHECK-NEXT:     k__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(out, in, n, __tf_a3);
// CHECK-NEXT:     __tf_check.original_done();
// CHECK-NEXT:     if (__tf_check.again()) { k__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(out, in, n, __tf_a3); __tf_check.again_done(); }
// CHECK-NEXT:     k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), out, in, n, __tf_a3);
// CHECK-NEXT:     __tf_check.coarsened_done();
// CHECK-NEXT:   } else {
// CHECK-NEXT:     k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, 0, s>>>(::tfuse_rt::grid_extent(__tf_grid, 0), out, in, n, next());
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      __global__ void k(unsigned int __tf_grid_x, float *out, const float *in, int n, int seed)
// CHECK:      /* tfuse -check: the original 'k', run first and compared with it when TFUSE_CHECK=1 */
// CHECK-NEXT: __global__ void k__tf_orig(float *out, const float *in, int n, int seed)
// CHECK-NEXT: {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

__global__ void k(float *out, const float *in, int n, int seed);

int next();

void host(float *out, const float *in, int n, cudaStream_t s) {
  int g = (n + 127) / 128;
  k<<<g, dim3(128), 0, s>>>(out, in, n, next());
}

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, int n, int seed)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * seed;
}
