// -tune-space items MODE.DIM.interleaved:K (and .separate) try the layout
// of replicated shared arrays as part of the candidate: block.x.interleaved:2
// is the variant k__tf_bx2i, whose replicas of `t` lie side by side; an item
// in the default layout is a duplicate of the plain one and is emitted once.
// A layout on a thread-mode item is a usage error.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -tune-space "block.x:2 block.x.interleaved:2,4 block.x.separate:2" %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// With -layout interleaved, the items without a layout of their own take it.
// RUN: %tfuse -factor auto -layout interleaved -tune-space "block.x:2 block.x.separate:4" %t.in.cu -o %t.il.cu
// RUN: FileCheck --check-prefix=CLI %s < %t.il.cu
// RUN: { %tfuse -factor auto -tune-space "thread.x.interleaved:2" %t.in.cu -o %t.bad.cu 2>&1 || echo "exit=$?"; } | FileCheck --check-prefix=BAD %s
// RUN: test ! -e %t.bad.cu

// CHECK-LABEL: void k__tf_bx2(
// CHECK:       __shared__ float t_0[128];
// CHECK-LABEL: void k__tf_bx2i(
// CHECK:       __shared__ float __align__(16) t[1][128][2];
// CHECK:       t[0][threadIdx.x][1] = __tf_ok_1 ? (in[(blockIdx.x * 2 + 1) * 128 + threadIdx.x]) : 0;
// CHECK-LABEL: void k__tf_bx4i(
// CHECK:       __shared__ float __align__(16) t[1][128][4];
// CHECK: static const tfuse_tune_cand __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}, {1, 0, 2u, "block.x.interleaved:2"}, {1, 0, 4u, "block.x.interleaved:4"}};
// CLI: static const tfuse_tune_cand __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x.interleaved:2"}, {1, 0, 4u, "block.x:4"}};
// BAD: error: invalid value 'thread.x.interleaved:2' for -tune-space
// BAD: exit=2

#pragma tfuse coarsen
__global__ void k(float *out, const float *in) {
  __shared__ float t[128];
  t[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = t[127 - threadIdx.x];
}

void run(float *out, const float *in) { k<<<64, 128>>>(out, in); }
