// A uniform local written inside a statement that is emitted once per copy
// (because the statement is varying for another reason) must be per copy
// too: in `acc += in[j++] * in[i];` every logical thread advances its own
// j once per iteration, so each copy needs its own j:
//   acc_0 += in[j_0++] * in[i_0];
//   if (__tf_ok_1) acc_1 += in[j_1++] * in[i_1];
// Expected to fail: tfuse keeps j uniform (declared once) and emits the
// statement twice, so j advances twice per iteration (and only once when
// copy 1 is past the grid): copy 0 reads in[0], in[2], ... instead of
// in[0], in[1], ...  The same happens to `out[i] = u++;`.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:      acc_0 += in[j_0++] * in[i_0];
// CHECK-NEXT: {{(if \(__tf_ok_1\) )?}}acc_1 += in[j_1++] * in[i_1];
// CHECK:      out[i_0 + 1] = u_0++;
// CHECK-NEXT: {{(if \(__tf_ok_1\) )?}}out[i_1 + 1] = u_1++;

#pragma tfuse coarsen
__global__ void k(float *out, const float *in, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = 0;
  float acc = 0.0f;
  for (int t = 0; t < m; t++)
    acc += in[j++] * in[i];
  out[i] = acc;
  int u = m;
  out[i + 1] = u++;
}
