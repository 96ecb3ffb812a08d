// nvcc gives host code the min and max overloads of its math headers
// (`max(1.5f, x)`, `min(3, 4)`, `max(2u, 5)`); clang's CUDA headers do not,
// and tfuse's parser used to stop at "no matching function for call to
// 'max'" in a file nvcc compiles. tfuse's parser now sees the same
// overloads (a header it includes for parsing only, never emitted), also
// with no cache folder to write that header to (then it is a file of the
// parse only): the same output.
// REQUIRES: nvcc
// RUN: sed "s#^//.*##" %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: env -u HOME -u XDG_CACHE_HOME TFUSE_CACHE_DIR= %tfuse -factor 2 %t.in.cu -o %t.nocache.cu 2>&1 | count 0
// RUN: diff <(sed 1d %t.cu) <(sed 1d %t.nocache.cu)

// CHECK-NOT: TFUSE_MINMAX
// CHECK: float s = max(1.5f, scale);

#include <cstdio>

#pragma tfuse coarsen
__global__ void k(float *o, float scale) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = max(scale, 1.0f);
}

int main() {
  float scale = 2.0f;
  float s = max(1.5f, scale);
  int a = min(3, 4);
  unsigned b = max(2u, 5);
  long long c = min(7LL, 9LL);
  double d = max(1.0, 2.0f);
  printf("%f %d %u %lld %f\n", s, a, b, c, d);
  k<<<4, 32>>>(nullptr, s);
  return 0;
}
