// A comment in a launch's configuration may hold commas: they separate
// nothing (BlackScholes writes `<<<480, 128 /*480, 128*/>>>`).  Every form
// of the rewrite splits grid, block, size and stream as the compiler does.
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 -kernel k %s -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -kernel k %s -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor auto -kernel k %s -o %t.auto.cu
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.cu
// RUN: %nvcc-check -I %src-root/runtime/include %t.auto.cu

__global__ void k(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

void f(float *x) { k<<<480, 128 /*480, 128*/>>>(x); }
void g(float *x) { k<<<4 /* a, b */, 128, 0 /* ,, */>>>(x); }

// BLOCK: void f(float *x) { { const dim3 __tf_grid = (480); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128 /*480, 128*/>>>(::tfuse_rt::grid_extent(__tf_grid, 0), x); } }
// BLOCK: void g(float *x) { { const dim3 __tf_grid = (4 /* a, b */); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128, 0 /* ,, */>>>(::tfuse_rt::grid_extent(__tf_grid, 0), x); } }
// THREAD: k<<<480, ::tfuse_rt::coarsen_block(128 /*480, 128*/, 0, 2u, "k", "{{.*}}config-comments.cu:17")>>>(x);
// AUTO: const dim3 __tf_grid = (480); const dim3 __tf_block = (128 /*480, 128*/);
// AUTO-NEXT: const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
// AUTO: const dim3 __tf_grid = (4 /* a, b */); const dim3 __tf_block = (128);
// AUTO-NEXT: const size_t __tf_smem = (0 /* ,, */); const cudaStream_t __tf_stream = (0);
