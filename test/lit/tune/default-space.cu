// -factor auto without -tune-space or -candidates: the space is derived
// from the kernel.  Its own mode along its own dimension (2, 4, 8, 16), the
// other mode along it (2, 4);
// along each other dimension whose block or thread index it reads (2, 4,
// 8); in block mode the two-dimensional merges (2x2, 4x2, 2x4, 4x4, 8x8)
// and, where it names __shared__ arrays, the same with interleaved
// replicas (4x4, 8x8); a candidate whose copies times the body's nodes
// pass 16384 is left out of the default space (big's 8x8, with a remark:
// register spills and nvcc's time grow with it); a merge whose replicated
// __shared__ arrays pass the
// 48 KB a block may declare is left out (tile's 8x8: 64 x 1088 bytes).  A
// kernel that reads x alone keeps x alone; a thread
// -mode kernel gets thread candidates.  A -tune-space item may name two
// dimensions (block.xy:AxB; a factor of 1 makes it one-dimensional).  Each
// output compiles.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -all-kernels -report %t.in.cu -o %t.cu 2>&1 | FileCheck --check-prefix=REPORT %s
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor auto -kernel tile -tune-space "block.xy:2x2,4x1 block.yx.interleaved:2x2" %t.in.cu -o %t.space.cu
// RUN: FileCheck --check-prefix=SPACE %s < %t.space.cu
// RUN: %nvcc-check %t.space.cu
// RUN: not %tfuse -factor auto -kernel tile -tune-space "thread.xy:2x2" %t.in.cu -o %t.bad.cu 2>&1 | FileCheck --check-prefix=BAD %s

// CHECK-LABEL: void run(
// CHECK:      __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}, {1, 0, 4u, "block.x:4"}, {1, 0, 8u, "block.x:8"}, {1, 0, 16u, "block.x:16"}, {2, 0, 2u, "thread.x:2"}, {2, 0, 4u, "thread.x:4"}};
// CHECK:      __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}, {1, 0, 4u, "block.x:4"}, {1, 0, 8u, "block.x:8"}, {1, 0, 16u, "block.x:16"}, {2, 0, 2u, "thread.x:2"}, {2, 0, 4u, "thread.x:4"}, {1, 1, 2u, "block.y:2"}, {1, 1, 4u, "block.y:4"}, {1, 1, 8u, "block.y:8"}, {1, 0, 4u, "block.xy:2x2"}, {1, 0, 8u, "block.xy:4x2"}, {1, 0, 8u, "block.xy:2x4"}, {1, 0, 16u, "block.xy:4x4"}, {1, 0, 16u, "block.xy.interleaved:4x4"}};
// CHECK:      case 14: tile__tf_bxy4x4i<<<::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 1, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::grid_extent(__tf_grid, 1), out, in, n); break;
// CHECK:      __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {2, 0, 2u, "thread.x:2"}, {2, 0, 4u, "thread.x:4"}, {2, 0, 8u, "thread.x:8"}, {2, 0, 16u, "thread.x:16"}, {1, 0, 2u, "block.x:2"}, {1, 0, 4u, "block.x:4"}, {2, 1, 2u, "thread.y:2"}, {2, 1, 4u, "thread.y:4"}, {2, 1, 8u, "thread.y:8"}};

// SPACE:      __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 4u, "block.xy:2x2"}, {1, 0, 4u, "block.x:4"}, {1, 1, 4u, "block.yx.interleaved:2x2"}};
// SPACE:      case 3: tile__tf_byx2x2i<<<::tfuse_rt::coarsen_grid(::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 1, 2u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::grid_extent(__tf_grid, 1), out, in, n); break;

// REPORT: remark: -factor auto: candidate block.xy:8x8 of 'tile' left out: coarsened by 8,8, 'tile' would declare 69632 bytes of static __shared__ memory
// REPORT: remark: -factor auto: candidate block.xy.interleaved:8x8 of 'tile' left out: coarsened by 8,8,
// REPORT: remark: -factor auto: candidate block.xy:8x8 of 'big' left out of the default space: 64 copies of a body of {{[0-9]+}} nodes pass the size estimate (16384); name it with -tune-space to try it

// BAD: tfuse: error: invalid value 'thread.xy:2x2' for -tune-space

__global__ void row(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * i;
}

__global__ void tile(float *out, const float *in, int n) {
  __shared__ float t[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  t[threadIdx.y][threadIdx.x] = x < n && y < n ? in[y * n + x] : 0.0f;
  __syncthreads();
  if (x < n && y < n)
    out[y * n + x] = t[threadIdx.y][threadIdx.x] + t[threadIdx.x][threadIdx.y];
}

#pragma tfuse coarsen mode(thread)
__global__ void plane(float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[y * n + x] = x + y;
}

__global__ void big(float *out, const float *in, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = in[(y * n + x) % n];
  v = v * 1.5f + (float)(x ^ 0) - (float)(y & 3);
  v = v * 2.5f + (float)(x ^ 1) - (float)(y & 4);
  v = v * 3.5f + (float)(x ^ 2) - (float)(y & 5);
  v = v * 4.5f + (float)(x ^ 3) - (float)(y & 6);
  v = v * 5.5f + (float)(x ^ 4) - (float)(y & 7);
  v = v * 6.5f + (float)(x ^ 5) - (float)(y & 8);
  v = v * 7.5f + (float)(x ^ 6) - (float)(y & 9);
  v = v * 1.5f + (float)(x ^ 7) - (float)(y & 10);
  v = v * 2.5f + (float)(x ^ 8) - (float)(y & 11);
  v = v * 3.5f + (float)(x ^ 9) - (float)(y & 12);
  v = v * 4.5f + (float)(x ^ 10) - (float)(y & 13);
  v = v * 5.5f + (float)(x ^ 11) - (float)(y & 14);
  v = v * 6.5f + (float)(x ^ 12) - (float)(y & 15);
  v = v * 7.5f + (float)(x ^ 13) - (float)(y & 16);
  v = v * 1.5f + (float)(x ^ 14) - (float)(y & 17);
  v = v * 2.5f + (float)(x ^ 15) - (float)(y & 18);
  v = v * 3.5f + (float)(x ^ 16) - (float)(y & 19);
  v = v * 4.5f + (float)(x ^ 17) - (float)(y & 20);
  v = v * 5.5f + (float)(x ^ 18) - (float)(y & 21);
  v = v * 6.5f + (float)(x ^ 19) - (float)(y & 22);
  v = v * 7.5f + (float)(x ^ 20) - (float)(y & 23);
  v = v * 1.5f + (float)(x ^ 21) - (float)(y & 24);
  v = v * 2.5f + (float)(x ^ 22) - (float)(y & 25);
  v = v * 3.5f + (float)(x ^ 23) - (float)(y & 26);
  v = v * 4.5f + (float)(x ^ 24) - (float)(y & 27);
  v = v * 5.5f + (float)(x ^ 25) - (float)(y & 28);
  v = v * 6.5f + (float)(x ^ 26) - (float)(y & 29);
  v = v * 7.5f + (float)(x ^ 27) - (float)(y & 30);
  v = v * 1.5f + (float)(x ^ 28) - (float)(y & 31);
  v = v * 2.5f + (float)(x ^ 29) - (float)(y & 32);
  v = v * 3.5f + (float)(x ^ 30) - (float)(y & 33);
  v = v * 4.5f + (float)(x ^ 31) - (float)(y & 34);
  v = v * 5.5f + (float)(x ^ 32) - (float)(y & 35);
  v = v * 6.5f + (float)(x ^ 33) - (float)(y & 36);
  v = v * 7.5f + (float)(x ^ 34) - (float)(y & 37);
  v = v * 1.5f + (float)(x ^ 35) - (float)(y & 38);
  v = v * 2.5f + (float)(x ^ 36) - (float)(y & 39);
  v = v * 3.5f + (float)(x ^ 37) - (float)(y & 40);
  v = v * 4.5f + (float)(x ^ 38) - (float)(y & 41);
  v = v * 5.5f + (float)(x ^ 39) - (float)(y & 42);
  out[(y * n + x) % n] = v;
}

void run(float *out, const float *in, int n) {
  row<<<(n + 255) / 256, 256>>>(out, n);
  tile<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(out, in, n);
  plane<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(out, n);
  big<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(out, in, n);
}
