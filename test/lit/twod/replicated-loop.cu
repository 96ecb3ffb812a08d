// A loop whose trip count varies along x is emitted whole once per copy
// it differs for.  Its body accumulates a value that varies along y, so
// the loop is emitted for each (rx, ry): then every local it writes needs
// a copy per (rx, ry), even `cnt`, whose value differs only along x (one
// cnt_x1 incremented by the loops of copies (1, 0) and (1, 1) would count
// twice).  A uniform loop stays one loop with its statements emitted per
// the dimensions each varies along (`t` along x only).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void k(
// CHECK:        int steps_x0 = len[(blockIdx.x * 2)];
// CHECK-NEXT:   int steps_x1 = TFUSE_GUARD(__tf_ok_x1, len[(blockIdx.x * 2 + 1)]);
// CHECK:        int cnt_x0y0 = 0;
// CHECK-NEXT:   int cnt_x1y0 = 0;
// CHECK-NEXT:   int cnt_x0y1 = 0;
// CHECK-NEXT:   int cnt_x1y1 = 0;
// CHECK-NEXT:   for (int s = 0; s < steps_x0; s++) {
// CHECK-NEXT:     acc_x0y0 += a[(blockIdx.y * 2) * n + s];
// CHECK-NEXT:     cnt_x0y0++;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (__tf_ok_x1) for (int s = 0; s < steps_x1; s++) {
// CHECK-NEXT:     acc_x1y0 += a[(blockIdx.y * 2) * n + s];
// CHECK-NEXT:     cnt_x1y0++;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (__tf_ok_y1) for (int s = 0; s < steps_x0; s++) {
// CHECK:        if (__tf_ok_x1 && __tf_ok_y1) for (int s = 0; s < steps_x1; s++) {
// CHECK-NEXT:     acc_x1y1 += a[(blockIdx.y * 2 + 1) * n + s];
// CHECK-NEXT:     cnt_x1y1++;
// CHECK-NEXT:   }
// CHECK-NEXT:   float t_x0 = 0.0f;
// CHECK-NEXT:   float t_x1 = 0.0f;
// CHECK-NEXT:   for (int s = 0; s < n; s++) {
// CHECK-NEXT:     t_x0 += a[s] * (blockIdx.x * 2);
// CHECK-NEXT:     t_x1 += a[s] * (blockIdx.x * 2 + 1);
// CHECK-NEXT:   }

#pragma tfuse coarsen factor(2,2) dim(x,y)
__global__ void k(float *out, const float *a, const int *len, int n) {
  int steps = len[blockIdx.x];
  float acc = 0.0f;
  int cnt = 0;
  for (int s = 0; s < steps; s++) {
    acc += a[blockIdx.y * n + s];
    cnt++;
  }
  float t = 0.0f;
  for (int s = 0; s < n; s++) {
    t += a[s] * blockIdx.x;
  }
  int o = (blockIdx.y * gridDim.x + blockIdx.x) * 3;
  out[o] = acc;
  out[o + 1] = cnt;
  out[o + 2] = t;
}

void host(float *o, const float *a, const int *len, int n) { k<<<dim3(3, 3), 64>>>(o, a, len, n); }
