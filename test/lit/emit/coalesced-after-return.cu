// Block mode, a coalesced group after a return that only some threads take
// (cuda-samples' qsort_warp: `if (thread_id >= len) return;`, then
// `cg::coalesced_threads()`): from the first statement after that return,
// the kernel's body is written out whole per copy, under the copy's live
// flag (fuse.c emit_copy_tail), so copy r's group holds exactly the threads
// of logical block r that did not return, as the original's does.  A later
// return leaves its copy's part alone (`live = false; goto` past it); a
// helper holding a group (agg_inc) counts too; with several dimensions
// every copy (x, y) gets its part.  Uniform work after the return (`pivot`)
// is then done by every copy.  Interleaved, the group would be made
// once, or by every thread (a pure statement), with threads whose logical
// thread returned.  What stays refused: refuse/cooperative-groups.cu.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -kernel partition -kernel counted %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2,2 -dim x,y -mode block -kernel grid2d %t.in.cu -o %t.2d.cu
// RUN: FileCheck --check-prefix=XY %s < %t.2d.cu
// RUN: %nvcc-check %t.2d.cu

// CHECK-LABEL: __global__ void partition(
// CHECK:      if (__tf_p1_0) __tf_live_0 = false;
// CHECK-NEXT: if (__tf_p1_1) __tf_live_1 = false;
// CHECK-NEXT: }
// CHECK-NEXT: if (__tf_live_0) {
// CHECK-NEXT: unsigned pivot = in[offset + len / 2];
// CHECK-NEXT: unsigned data_0 = in[offset + thread_id_0];
// CHECK-NEXT: cg::coalesced_group active = cg::coalesced_threads();
// CHECK-NEXT: unsigned gt_mask_0 = active.ballot(data_0 > pivot);
// CHECK:      out[offset + thread_id_0] = gt_mask_0 + active.thread_rank() + active.shfl(data_0, 0);
// CHECK-NEXT: }
// CHECK-NEXT: if (__tf_ok_1 && __tf_live_1) {
// CHECK-NEXT: unsigned pivot = in[offset + len / 2];
// CHECK-NEXT: unsigned data_1 = in[offset + thread_id_1];
// CHECK-NEXT: cg::coalesced_group active = cg::coalesced_threads();
// CHECK-NEXT: unsigned gt_mask_1 = active.ballot(data_1 > pivot);
// CHECK:      out[offset + thread_id_1] = gt_mask_1 + active.thread_rank() + active.shfl(data_1, 0);
// CHECK-NEXT: }
// CHECK-NEXT: }

// CHECK-LABEL: __global__ void counted(
// CHECK:      if (__tf_live_0) {
// CHECK-NEXT: acc_0 += in[i_0];
// CHECK-NEXT: if (in[i_0] < 0)
// CHECK-NEXT:   do { __tf_live_0 = false; goto __tf_ret1_0; } while (0);
// CHECK:      out[i_0] = acc_0 + agg_inc(counter);
// CHECK-NEXT: }
// CHECK-NEXT: __tf_ret1_0:;
// CHECK-NEXT: if (__tf_ok_1 && __tf_live_1) {
// CHECK:        do { __tf_live_1 = false; goto __tf_ret1_1; } while (0);
// CHECK:      out[i_1] = acc_1 + agg_inc(counter);
// CHECK-NEXT: }
// CHECK-NEXT: __tf_ret1_1:;

// XY-LABEL: __global__ void grid2d(
// XY:      if (__tf_live_x0y0) {
// XY-NEXT: cg::coalesced_group g = cg::coalesced_threads();
// XY-NEXT: out[y_y0 * w + x_x0] = g.thread_rank() + g.size() * in[y_y0 * w + x_x0];
// XY-NEXT: }
// XY-NEXT: if (__tf_ok_x1 && __tf_live_x1y0) {
// XY:      if (__tf_ok_y1 && __tf_live_x0y1) {
// XY:      if (__tf_ok_x1 && __tf_ok_y1 && __tf_live_x1y1) {
// XY-NEXT: cg::coalesced_group g = cg::coalesced_threads();
// XY-NEXT: out[y_y1 * w + x_x1] = g.thread_rank() + g.size() * in[y_y1 * w + x_x1];

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void partition(unsigned *in, unsigned *out, unsigned offset, unsigned len) {
  unsigned thread_id = threadIdx.x + blockIdx.x * blockDim.x;
  if (thread_id >= len)
    return;
  unsigned pivot = in[offset + len / 2];
  unsigned data = in[offset + thread_id];
  cg::coalesced_group active = cg::coalesced_threads();
  unsigned gt_mask = active.ballot(data > pivot);
  if (gt_mask == 0)
    gt_mask = active.ballot(data >= pivot);
  out[offset + thread_id] = gt_mask + active.thread_rank() + active.shfl(data, 0);
}

__device__ int agg_inc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int res = 0;
  if (active.thread_rank() == 0)
    res = atomicAdd(counter, active.size());
  return active.shfl(res, 0) + active.thread_rank();
}

__global__ void counted(int *out, int *counter, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  if (i >= n)
    return;
  acc += in[i];
  if (in[i] < 0)
    return;
  for (int j = 0; j < 4; j++) {
    if (in[(i + j) % n] == 7)
      return;
    acc += j;
  }
  out[i] = acc + agg_inc(counter);
}

__global__ void grid2d(int *out, const int *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  cg::coalesced_group g = cg::coalesced_threads();
  out[y * w + x] = g.thread_rank() + g.size() * in[y * w + x];
}

void launch(unsigned *u, int *out, int *counter, const int *in, int n) {
  partition<<<(n + 127) / 128, 128>>>(u, u + n, 0, n);
  counted<<<(n + 63) / 64, 64>>>(out, counter, in, n);
  grid2d<<<dim3(n / 8, n / 8), dim3(8, 8)>>>(out, in, n, n);
}
