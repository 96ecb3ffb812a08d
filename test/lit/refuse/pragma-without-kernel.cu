// `#pragma tfuse coarsen` must stand right before a __global__ function
// definition (or its template line): before anything else it is an error,
// and before a __device__ function the error names that function.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

// CHECK: pragma-without-kernel.cu:[[@LINE+1]]:1: error: '#pragma tfuse coarsen' must be followed by a __global__ function definition
#pragma tfuse coarsen
int counter;

__global__ void k(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: pragma-without-kernel.cu:[[@LINE+2]]:18: error: '#pragma tfuse coarsen' applies to __global__ kernels; 'helper' is not one
#pragma tfuse coarsen
__device__ float helper(float x) { return x; }
