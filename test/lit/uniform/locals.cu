// Varying spreads through locals, flow-insensitively: a copy of a varying
// value is varying, and so is a variable with one varying definition even
// where an earlier definition was uniform; values built only from
// parameters and uniform locals stay uniform.
// RUN: %tfuse -dump-after=uniform %s | FileCheck %s

// CHECK-LABEL: FUNC 'k'
// CHECK: PARAM 'n' <{{[0-9:]+}}> [uniform]
// CHECK: VAR 'i' <{{[0-9:]+}}> varying [varying]
// CHECK: VAR 'j' <{{[0-9:]+}}> varying [varying]
// CHECK: VAR 'u' <{{[0-9:]+}}> [uniform]
// CHECK: VAR 'w' <{{[0-9:]+}}> [uniform]
// CHECK: VAR 'late' <{{[0-9:]+}}> varying [varying]

#pragma tfuse coarsen
__global__ void k(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i + 1;
  int u = n * 2;
  int w = u + threadIdx.x;
  int late = u;
  late = j;
  out[late] = w;
}
