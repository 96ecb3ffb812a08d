// What nvcc's headers bring into every file besides CUDA's own: <math.h>'s
// isfinite, isnan, isinf and signbit in the global namespace, for host and
// __host__ __device__ code, and <time.h>'s clock(), time() and clock_t on
// the host.  clang's CUDA headers do not include <math.h> or <time.h>, so
// tfuse's parser stopped at "no matching function for call to 'clock'" and
// "reference to __device__ function 'isfinite' in __host__ __device__
// function" in files nvcc compiles.  tfuse's parser includes both (parsed
// only); the output includes nothing more, and nvcc compiles it.
// REQUIRES: nvcc
// RUN: sed "s#^//.*##" %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// CHECK-NOT: {{#include <(math.h|time.h|new)>}}
// CHECK-LABEL: __global__ void clean(
// CHECK: o[i_0] = finite(in[i_0]) ? in[i_0] : 0.0f;
// CHECK-NEXT: if (__tf_ok_1) o[i_1] = finite(in[i_1]) ? in[i_1] : 0.0f;

__host__ __device__ bool finite(float x) { return isfinite(x) && !isnan(x) && !isinf(x) && !signbit(x); }

bool host_finite(double x) { return isfinite(x) && !isnan(x) && !isinf(x); }

#pragma tfuse coarsen
__global__ void clean(float *o, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = finite(in[i]) ? in[i] : 0.0f;
}

int main() {
  clock_t t0 = clock();
  time_t now = time(nullptr);
  clean<<<4, 32>>>(nullptr, nullptr);
  return (int)(clock() - t0) + (int)(now % 2) + host_finite(1.0) * (int)CLOCKS_PER_SEC;
}
