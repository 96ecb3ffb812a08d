// -check and a launch's stream: one whose text may change something
// (`next_stream()`) is evaluated once, before the capture test that reads
// it, and every launch of the rewrite uses that value; a plain name is
// read where it is used.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: void run(
// CHECK:      { const dim3 __tf_grid = ((n + 127) / 128); const dim3 __tf_block = (128); const cudaStream_t __tf_stream_once = (next_stream());
// CHECK-NEXT: if (::tfuse_rt::check_on((__tf_stream_once))) {
// CHECK-NEXT: const size_t __tf_smem = (0);
// CHECK-NEXT: const cudaStream_t __tf_stream = (__tf_stream_once);
// CHECK:      } else {
// CHECK-NEXT: scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, 0, __tf_stream_once>>>(
// CHECK:      { const dim3 __tf_grid = ((n + 127) / 128); const dim3 __tf_block = (128);
// CHECK-NEXT: if (::tfuse_rt::check_on((s))) {
// CHECK-NEXT: const size_t __tf_smem = (0);
// CHECK-NEXT: const cudaStream_t __tf_stream = (s);
// CHECK:      } else {
// CHECK-NEXT: scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, 0, s>>>(

static cudaStream_t streams[4];
static int turn;
static cudaStream_t next_stream() { return streams[turn++ % 4]; }

#pragma tfuse coarsen
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

void run(float *x, int n, cudaStream_t s) {
  scale<<<(n + 127) / 128, 128, 0, next_stream()>>>(x, n);
  scale<<<(n + 127) / 128, 128, 0, s>>>(x, n);
}
