// A helper of a header outside the project (not under the root, the
// input's folder) that reads the thread index is refused in thread mode:
// tfuse does not rewrite that header, so it cannot clone the helper.  One
// whose body tests __CUDA_ARCH__ is refused in both modes: tfuse parses the
// host side and would analyse the host's branch, not the code the device
// runs.  The same header under the root is a file of the project, whose
// text tfuse reads: lane_id's `% 32` is then refused for what it is, where
// the mapping does not keep warps whole.
// RUN: rm -rf %t.inc && mkdir -p %t.inc && cp %S/Inputs/helpers.cuh %t.inc/
// RUN: not %tfuse -factor 2 -mode thread -I %t.inc %s -o %t.out > %t.thread.log 2>&1
// RUN: FileCheck %s < %t.thread.log
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.log
// RUN: not %tfuse -factor 2 -mode block -I %t.inc %s -o %t.out > %t.block.log 2>&1
// RUN: FileCheck %s < %t.block.log
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.log
// RUN: not %tfuse -factor 2 -mode thread -mapping consecutive -I %S/Inputs %s -o %t.out > %t.project.log 2>&1
// RUN: FileCheck %s < %t.project.log
// RUN: FileCheck %s --check-prefix=PROJECT < %t.project.log

#include "helpers.cuh"

#pragma tfuse coarsen
__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
// THREAD: header-refused.cu:[[@LINE+3]]:12: error: 'lane_id' reads threadIdx.x, which coarsening changes; it is defined in a header, which tfuse does not rewrite, so it cannot be cloned per copy; pass the value as an argument instead
// BLOCK-NOT: lane_id
// PROJECT: header-refused.cu:[[@LINE+1]]:12: error: 'lane_id' does lane arithmetic on the thread index in thread mode: merging threads would change which lanes form a warp; thread mode keeps warps whole only with -mapping stride along x alone
  out[i] = lane_id();
// CHECK: header-refused.cu:[[@LINE+1]]:13: error: call to 'fast_exp', whose text tests the compilation target (__CUDA_ARCH__, NV_IF_TARGET) or is compiled differently on the device: tfuse parses the host side and cannot see the device code
  out[i] += fast_exp(out[i]);
}

void run(float *out, int n) { k<<<n, 64>>>(out); }
