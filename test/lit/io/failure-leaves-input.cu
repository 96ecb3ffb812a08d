// When coarsening fails, nothing is written: with -o no output file
// appears (an existing one is left as it was), and with -i the input file
// is unchanged, byte for byte.
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/input.cu && cp %s %t.dir/orig.cu
// RUN: not %tfuse %t.dir/input.cu -o %t.dir/out.cu 2>&1 | FileCheck %s
// RUN: test ! -e %t.dir/out.cu
// RUN: not %tfuse -i %t.dir/input.cu 2>&1 | FileCheck %s
// RUN: cmp %t.dir/input.cu %t.dir/orig.cu
// RUN: echo keep > %t.dir/old.cu
// RUN: not %tfuse %t.dir/input.cu -o %t.dir/old.cu 2>&1 | FileCheck %s
// RUN: echo keep | cmp - %t.dir/old.cu
// RUN: ls %t.dir | count 3

// CHECK: input.cu:[[@LINE+5]]:5: error: __syncthreads() under control that differs between the copies

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  if (blockIdx.x < n + threadIdx.x)
    __syncthreads();
  out[blockIdx.x] = 1.0f;
}
