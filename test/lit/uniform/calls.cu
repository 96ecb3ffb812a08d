// Calls: a pure __device__ function of uniform arguments is uniform, of a
// varying argument varying; a call with side effects (atomicAdd, a device
// function that stores) runs once per copy, so its value is varying even
// when every argument is uniform.  Pure math builtins follow their
// arguments.
// RUN: %tfuse -dump-after=uniform %s | FileCheck %s

// CHECK-LABEL: FUNC 'k'
// CHECK: VAR 'a' <{{[0-9:]+}}> [uniform]
// CHECK: VAR 'b' <{{[0-9:]+}}> varying [varying]
// CHECK: VAR 'c' <{{[0-9:]+}}> varying [varying]
// CHECK: VAR 'd' <{{[0-9:]+}}> varying [varying]
// CHECK: VAR 'e' <{{[0-9:]+}}> [uniform]
// CHECK: VAR 'f' <{{[0-9:]+}}> varying [varying]

__device__ float sq(float v) { return v * v; }
__device__ float bump(float *p) { *p += 1.0f; return *p; }

#pragma tfuse coarsen
__global__ void k(float *out, int *cnt, float s) {
  float a = sq(s);
  float b = sq((float)blockIdx.x);
  int c = atomicAdd(cnt, 1);
  float d = bump(out);
  float e = sqrtf(s);
  float f = sqrtf((float)blockIdx.x);
  out[blockIdx.x] = a + b + c + d + e + f;
}
