// A launch may name its kernel through a namespace (`img::scale`,
// `::img::scale`), a using-declaration's namespace (`other::scale`) or a
// using-directive: the callee is copied as written, whatever qualifies it.
// -check and -factor auto name renamed kernels (the kept original, the
// variants), declared beside the kernel only: a launch through another
// namespace, or a using-declaration that -factor auto's renaming would
// leave naming nothing, is refused there.
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 -kernel scale %s -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -kernel scale %s -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: not %tfuse -factor 2 -check -kernel scale %s -o %t.check.cu 2>&1 | FileCheck %s --check-prefix=CHECK-OTHER
// RUN: not %tfuse -factor auto -kernel scale %s -o %t.auto.cu 2>&1 | FileCheck %s --check-prefix=AUTO-USING
// RUN: sed '/other-namespace$/d' %s > %t.own.cu
// RUN: %tfuse -factor 2 -check -kernel scale %t.own.cu -o %t.check-own.cu
// RUN: %nvcc-check -I %src-root/runtime/include %t.check-own.cu
// RUN: %tfuse -factor auto -kernel scale %t.own.cu -o %t.auto-own.cu
// RUN: FileCheck %s --check-prefix=AUTO-OWN < %t.auto-own.cu
// RUN: %nvcc-check -I %src-root/runtime/include %t.auto-own.cu

namespace img {
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}
} // namespace img

namespace other { // other-namespace
using img::scale;  // other-namespace
} // other-namespace

void run(float *x, int n) {
  img::scale<<<(n + 255) / 256, 256>>>(x, n);
  ::img::scale<<<(n + 255) / 256, 256>>>(x, n);
  other::scale<<<(n + 255) / 256, 256>>>(x, n); // other-namespace
  using namespace img;
  scale<<<(n + 255) / 256, 256>>>(x, n);
}

// BLOCK: { const dim3 __tf_grid = ((n + 255) / 256); img::scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256>>>(::tfuse_rt::grid_extent(__tf_grid, 0), x, n); }
// BLOCK: { const dim3 __tf_grid = ((n + 255) / 256); ::img::scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256>>>(::tfuse_rt::grid_extent(__tf_grid, 0), x, n); }
// BLOCK: { const dim3 __tf_grid = ((n + 255) / 256); other::scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256>>>(::tfuse_rt::grid_extent(__tf_grid, 0), x, n); }
// BLOCK: { const dim3 __tf_grid = ((n + 255) / 256); scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 256>>>(::tfuse_rt::grid_extent(__tf_grid, 0), x, n); }
// THREAD: img::scale<<<(n + 255) / 256, ::tfuse_rt::coarsen_block(256, 0, 2u, "scale", "{{.*}}qualified-launch.cu:37")>>>(x, n);
// THREAD: other::scale<<<(n + 255) / 256, ::tfuse_rt::coarsen_block(256, 0, 2u, "scale", "{{.*}}qualified-launch.cu:39")>>>(x, n);
// CHECK-OTHER: qualified-launch.cu:39:3: error: -check cannot route this launch of 'scale': it names the kernel through a qualifier other than its namespace's
// AUTO-USING: qualified-launch.cu:33:1: error: -factor auto renames 'scale', which this using-declaration names; refer to it through its namespace
// AUTO-OWN: case 1: ::img::scale__tf_bx2<<<
