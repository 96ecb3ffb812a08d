// Block mode multiplies a thread's registers by about K while the block
// keeps its size: with large blocks the coarsened kernel could exceed the
// register file at launch ("too many resources requested for launch",
// found by the random differential tester at K = 8 with 768-thread blocks).
// When every launch's block size is a constant (an integer, dim3 of
// constants, or a dim3 variable only read by launches), the kernel gets
// __launch_bounds__ of the largest; a kernel whose block variable is
// written elsewhere, or whose blocks are at most 256 threads, gets none.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 8 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: __global__ void __launch_bounds__(768) big(unsigned int __tf_grid_x, int *o)
// CHECK: __global__ void changed(unsigned int __tf_grid_x, int *o)
// CHECK: __global__ void small(unsigned int __tf_grid_x, int *o)

#pragma tfuse coarsen
__global__ void big(int *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
#pragma tfuse coarsen
__global__ void changed(int *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 2; }
#pragma tfuse coarsen
__global__ void small(int *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 3; }

void go(int *o, int n) {
  big<<<3, 512>>>(o);
  big<<<dim3(1, 2), dim3(24, 4, 8)>>>(o);
  dim3 b(32, 4, 2);
  big<<<4, b>>>(o);
  dim3 c(32, 4, 8);
  if (n > 4)
    c.x = 8;
  changed<<<4, c>>>(o);
  small<<<n, 256>>>(o);
}
