// -factor auto (pragma factor(auto)): the kernel is emitted once per
// candidate, the original first as k__tf_k1, then the default space of a
// kernel that reads x alone: 2, 4, 8, 16 in its own mode and dimension
// (block x), and 2, 4 in the other mode (thread x), each a renamed copy
// with that variant's rewrite; the prototype becomes the
// variants' prototypes; the tuning runtime's header follows the prelude and
// the check header; the launch becomes a dispatch: grid, block, size and
// stream evaluated once, an argument with a side effect in a local, the
// candidate table and the site, a lambda launching candidate c (the
// original by default), and tracking of the pointers to non-const only.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: #define TFUSE_CHECK_H
// CHECK: #define TFUSE_TUNE_H
// CHECK:      __global__ void k__tf_k1(const float *a, float *out, int n);
// CHECK-NEXT: __global__ void k__tf_bx2(unsigned int __tf_grid_x, const float *a, float *out, int n);
// CHECK-NEXT: __global__ void k__tf_bx4(unsigned int __tf_grid_x, const float *a, float *out, int n);
// CHECK-NEXT: __global__ void k__tf_bx8(unsigned int __tf_grid_x, const float *a, float *out, int n);
// CHECK-NEXT: __global__ void k__tf_bx16(unsigned int __tf_grid_x, const float *a, float *out, int n);
// CHECK-NEXT: __global__ void k__tf_tx2(const float *a, float *out, int n);
// CHECK-NEXT: __global__ void k__tf_tx4(const float *a, float *out, int n);

// CHECK:      { const dim3 __tf_grid = ((n + 255) / 256); const dim3 __tf_block = (256);
// CHECK-NEXT:   const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (s);
// CHECK-NEXT:   auto __tf_a2 = (next(n));
// CHECK-NEXT:   static const tfuse_tune_cand __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}, {1, 0, 4u, "block.x:4"}, {1, 0, 8u, "block.x:8"}, {1, 0, 16u, "block.x:16"}, {2, 0, 2u, "thread.x:2"}, {2, 0, 4u, "thread.x:4"}};
// CHECK-NEXT:   static tfuse_tune_site __tf_site = {"k", "{{[0-9a-f]+}}", "vecadd-auto.cu.tmp.in.cu:[[#LAUNCH:]]", 7, __tf_cands, 0};
// CHECK-NEXT:   auto __tf_launch = [&](int __tf_c) {
// CHECK-NEXT:     switch (__tf_c) {
// CHECK-NEXT:     default: k__tf_k1<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(a, out, __tf_a2); break;
// CHECK-NEXT:     case 1: k__tf_bx2<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), a, out, __tf_a2); break;
// CHECK:          case 4: k__tf_bx16<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 16u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), a, out, __tf_a2); break;
// CHECK-NEXT:     case 5: k__tf_tx2<<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "k", "vecadd-auto.cu.tmp.in.cu:[[#LAUNCH]]"), __tf_smem, __tf_stream>>>(a, out, __tf_a2); break;
// CHECK-NEXT:     case 6: k__tf_tx4<<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 4u, "k", "vecadd-auto.cu.tmp.in.cu:[[#LAUNCH]]"), __tf_smem, __tf_stream>>>(a, out, __tf_a2); break;
// CHECK-NEXT:     }
// CHECK-NEXT:   };
// CHECK-NEXT:   ::tfuse_rt::Tune __tf_tune(&__tf_site, __tf_grid, __tf_block, __tf_smem, __tf_stream);
// CHECK-NEXT:   if (__tf_tune.tuning()) { __tf_tune.track(out, "out"); __tf_tune.tune(__tf_launch); }
// CHECK-NEXT:   __tf_launch(__tf_tune.choice());
// CHECK-NEXT: }

// CHECK:      /* tfuse: factor auto, 7 variants: the fastest correct one is chosen at run time */
// CHECK-NEXT: /* tfuse -factor auto: variant 'original' of 'k' */
// CHECK-NEXT: __global__ void k__tf_k1(const float *a, float *out, int n) {
// CHECK:      /* tfuse -factor auto: variant 'block.x:2' of 'k' */
// CHECK-NEXT: __global__ void k__tf_bx2(unsigned int __tf_grid_x, const float *a, float *out, int n) {
// CHECK:      int i_1 = (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x;
// CHECK:      /* tfuse -factor auto: variant 'block.x:16' of 'k' */

__global__ void k(const float *a, float *out, int n);

int next(int n) { return n; }

void run(const float *a, float *out, int n, cudaStream_t s) {
  k<<<(n + 255) / 256, 256, 0, s>>>(a, out, next(n));
}

#pragma tfuse coarsen factor(auto)
__global__ void k(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * a[i];
}
