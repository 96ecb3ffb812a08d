// A declaration under a per-copy predicate whose initialization cannot be
// guarded is refused once, at the name, with the reason: a constructor with
// an effect beyond its object (it would run for copies that are inactive),
// here a global counter, or a write through a non-const reference argument
// into global memory.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: test ! -e %t.out

__device__ int counter;
struct Counted {
  float v;
  __device__ Counted(float x) : v(x) { counter++; }
};
struct Ref {
  float v;
  __device__ Ref(float &x) : v(x) { x = 0; }
};

#pragma tfuse coarsen
__global__ void k(float *a, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
// CHECK: guarded-initializer-limits.cu:[[@LINE+1]]:13: error: cannot guard the initializer of 'x' for copies that may be inactive: its constructor has effects beyond the object; assign it in a separate statement
    Counted x(a[i]);
// CHECK: guarded-initializer-limits.cu:[[@LINE+1]]:9: error: cannot guard the initializer of 'y' for copies that may be inactive: its constructor has effects beyond the object; assign it in a separate statement
    Ref y(a[i]);
    c[i] = x.v + y.v;
  }
}

int main() {
  k<<<10, 128>>>(nullptr, nullptr, 5);
  return 0;
}
