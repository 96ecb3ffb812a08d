// -factor auto copies a launch's arguments into each variant's launch; a
// preprocessor directive among them (#if ... #endif) cannot be copied into
// a line of its own there: the launch is refused with the reason (and with
// -skip-unsafe the kernel left as it was).  A fixed factor edits the
// launch in place and keeps the directive.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse -factor auto %t.in.cu -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor 2 %t.in.cu -o %t.k2.cu
// RUN: FileCheck %s --check-prefix=FIXED < %t.k2.cu
// RUN: %nvcc-check %t.k2.cu

// CHECK: error: -factor auto cannot route this launch of 'k': a preprocessor directive (#if ...) inside it would be copied into each variant's launch; coarsen it with a fixed -factor
// FIXED: k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), 128>>>(::tfuse_rt::grid_extent(__tf_grid, 0), out
// FIXED-NEXT: #if USE_SCALE
// FIXED-NEXT: , 2.0f
// FIXED-NEXT: #endif
#define USE_SCALE 1

#pragma tfuse coarsen
__global__ void k(float *out
#if USE_SCALE
                  , float s
#endif
) {
  float v = 1.0f;
#if USE_SCALE
  v *= s;
#endif
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

void run(float *out, int n) {
  k<<<n, 128>>>(out
#if USE_SCALE
                , 2.0f
#endif
  );
}
