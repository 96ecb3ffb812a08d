// A return under a varying condition marks the `if`, the body and the
// kernel `varying-return`; a variable declared before it and assigned
// after it is varying (copies that returned do not assign it), while a
// uniform definition after it stays uniform.
// RUN: %tfuse -dump-after=uniform %s | FileCheck %s

// CHECK-LABEL: FUNC 'k' <{{[0-9:]+}}> varying-return
// CHECK: VAR 'acc' <{{[0-9:]+}}> varying [varying]
// CHECK: IF <{{[0-9:]+}}> varying varying-control varying-return
// CHECK-NEXT: BINOP
// CHECK: RETURN <{{[0-9:]+}}> varying varying-return
// CHECK: VAR 'c' <{{[0-9:]+}}> [uniform]

#pragma tfuse coarsen
__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  if (i >= n) return;
  acc = 2.0f;
  float c = n * 0.5f;
  out[i] = acc + c;
}
