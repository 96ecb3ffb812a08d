// -tune-space spans modes and dimensions: the thread-mode candidate with
// the consecutive mapping, which legality refuses (a shuffle would split a
// warp's lanes), is left out,
// with -report saying why; the block-mode ones along x and y are emitted,
// a duplicate item once, and the candidate table names each kept variant.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -report -tune-space "block.x:2,4 thread.x.consecutive:2 block.y:2 block.x:2" %t.in.cu -o %t.cu 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// REPORT: tune-space.cu.tmp.in.cu:[[#KLINE:]]:17: remark: -factor auto: candidate block.x:2 of 'k' emitted as 'k__tf_bx2'
// REPORT: tune-space.cu.tmp.in.cu:[[#KLINE]]:17: remark: -factor auto: candidate block.x:4 of 'k' emitted as 'k__tf_bx4'
// REPORT: tune-space.cu.tmp.in.cu:[[#KLINE+3]]:8: remark: -factor auto: candidate thread.x.consecutive:2 of 'k' left out: warp-synchronous '__shfl_down_sync' in thread mode: merging threads would split the lanes of a warp; thread mode keeps warps whole only with -mapping stride along x alone
// REPORT: tune-space.cu.tmp.in.cu:[[#KLINE]]:17: remark: -factor auto: candidate block.y:2 of 'k' emitted as 'k__tf_by2'
// REPORT-NOT: remark

// CHECK: /* tfuse: factor auto, 4 variants: the fastest correct one is chosen at run time */
// CHECK: static const tfuse_tune_cand __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}, {1, 0, 4u, "block.x:4"}, {1, 1, 2u, "block.y:2"}};
// CHECK: case 3: k__tf_by2<<<::tfuse_rt::coarsen_grid(__tf_grid, 1, 2u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 1), out); break;

#pragma tfuse coarsen
__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = out[i];
  v += __shfl_down_sync(0xffffffff, v, 1);
  out[i] = v;
}

void run(float *out) { k<<<dim3(64, 4), 128>>>(out); }
