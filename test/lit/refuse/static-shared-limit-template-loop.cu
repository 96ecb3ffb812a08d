// As static-shared-limit-template.cu, with the template-sized shared
// arrays declared in a loop whose control differs between the copies (CUDA
// samples' matrixMul): each copy runs its own loop with its own arrays, so
// the static_assert goes first in the kernel, where the arrays' types can
// be spelled.  mm<32> at K = 8 is refused; K = 4 compiles.
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 8 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor 4 %s -o %t.k4.cu
// RUN: FileCheck --check-prefix=K4 %s < %t.k4.cu
// RUN: %nvcc-check %t.k4.cu

// CHECK: static-shared-limit-template-loop.cu:[[@LINE+7]]:{{[0-9]+}}: error: coarsened by 8, 'mm' (instantiated as 'mm<32>') would declare more than 48 KB of static __shared__ memory

// K4:      template <int BS> __global__ void mm(unsigned int __tf_grid_x, float *c, const float *a, int n) {
// K4-NEXT:   /* tfuse: this thread runs logical blocks blockIdx.x * 4 + r, r = 0..3 */
// K4:        static_assert(4 * sizeof(float[BS][BS]) + 4 * sizeof(float[BS][BS]) + 0 <= 48 * 1024,
// K4:        __shared__ float As_0[BS][BS];
#pragma tfuse coarsen
template <int BS> __global__ void mm(float *c, const float *a, int n) {
  int tx = threadIdx.x, ty = threadIdx.y;
  float s = 0;
  for (int k = blockIdx.x * BS; k < n; k += BS * gridDim.x) {
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    As[ty][tx] = a[k + tx];
    Bs[ty][tx] = a[k + ty];
    __syncthreads();
    s += As[ty][0] * Bs[0][tx];
    __syncthreads();
  }
  c[(blockIdx.x * BS + ty) * BS + tx] = s;
}

void run(float *c, const float *a, int n, int big) {
  if (big)
    mm<32><<<dim3(32), dim3(32, 32)>>>(c, a, n);
  else
    mm<16><<<dim3(64), dim3(16, 16)>>>(c, a, n);
}
