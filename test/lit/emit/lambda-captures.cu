// A lambda with a named capture list is emitted per copy with each named
// capture renamed with its variable, as the body's uses are: a copy
// capture `[x]`, a reference `[&s]`, beside a default `[=, &x]`, an
// init-capture `[y = x + 1.0f]` (its initializer renamed; its own name
// is the closure's, so `[x = x + 1.0f]` keeps the inner `x`), `mutable`;
// a capture of a variable all copies share (`[m, &n]`) is kept.  Each copy
// calls its own closure, in both modes; nvcc compiles every output.
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.block.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %s -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2,2 -dim x,y %s -o %t.xy.cu
// RUN: FileCheck %s --check-prefix=XY < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu

#include <cuda_runtime.h>

// BLOCK-LABEL: void copies(
// BLOCK:      auto g_0 = [x_0](int j) { return x_0 + j; };
// BLOCK-NEXT: auto g_1 = [x_1](int j) { return x_1 + j; };
// THREAD-LABEL: void copies(
// THREAD:      auto g_0 = [x_0](int j) { return x_0 + j; };
// THREAD-NEXT: auto g_1 = [x_1](int j) { return x_1 + j; };
// XY-LABEL: void copies(
// XY:      auto g_0_0 = [x_0_0](int j) { return x_0_0 + j; };
// XY:      auto g_1_1 = [x_1_1](int j) { return x_1_1 + j; };
#pragma tfuse coarsen
__global__ void copies(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i * 0.5f;
  auto g = [x](int j) { return x + j; };
  if (i < n) o[i] = g(3);
}

// BLOCK-LABEL: void mixed(
// BLOCK:      auto g_0 = [=, &x_0](int j) { x_0 += j; return x_0 + i_0; };
// BLOCK-NEXT: auto g_1 = [=, &x_1](int j) { x_1 += j; return x_1 + i_1; };
// BLOCK:      if (__tf_p1_0) o[i_0] = g_0(i_0) + x_0;
// BLOCK-NEXT: if (__tf_p1_1) o[i_1] = g_1(i_1) + x_1;
// THREAD-LABEL: void mixed(
// THREAD:      auto g_0 = [=, &x_0](int j) { x_0 += j; return x_0 + i_0; };
#pragma tfuse coarsen
__global__ void mixed(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i * 0.5f;
  auto g = [=, &x](int j) { x += j; return x + i; };
  if (i < n) o[i] = g(i) + x;
}

// BLOCK-LABEL: void init(
// BLOCK:      auto g_0 = [x = x_0 + 1.0f, &i_0, y = x_0](int j) mutable { x += j; return x + i_0 + y; };
// BLOCK-NEXT: auto g_1 = [x = x_1 + 1.0f, &i_1, y = x_1](int j) mutable { x += j; return x + i_1 + y; };
// THREAD-LABEL: void init(
// THREAD:      auto g_1 = [x = x_1 + 1.0f, &i_1, y = x_1](int j) mutable { x += j; return x + i_1 + y; };
#pragma tfuse coarsen
__global__ void init(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i * 0.5f;
  auto g = [x = x + 1.0f, &i, y = x](int j) mutable { x += j; return x + i + y; };
  if (i < n) o[i] = g(i) + g(1);
}

// BLOCK-LABEL: void byref(
// BLOCK:      auto g_0 = [&s_0, i_0](int j) { s_0 += j + i_0; return s_0; };
// BLOCK:      o[i_0 + n] = s_0;
// BLOCK-NEXT: if (__tf_ok_1) o[i_1 + n] = s_1;
// BLOCK-LABEL: void shared_value(
// BLOCK:      auto g_0 = [m, &n](int j) { return m + j + n; };
// BLOCK-NEXT: auto g_1 = [m, &n](int j) { return m + j + n; };
// THREAD-LABEL: void shared_value(
// THREAD:      auto g_0 = [m, &n](int j) { return m + j + n; };
#pragma tfuse coarsen
__global__ void byref(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  auto g = [&s, i](int j) { s += j + i; return s; };
  if (i < n) o[i] = g(i);
  o[i + n] = s;
}

#pragma tfuse coarsen
__global__ void shared_value(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = n / 2;
  auto g = [m, &n](int j) { return m + j + n; };
  if (i < n) o[i] = g(i);
}

int main() {
  float *o = nullptr;
  copies<<<8, 128>>>(o, 1000);
  mixed<<<8, 128>>>(o, 1000);
  init<<<8, 128>>>(o, 1000);
  byref<<<8, 128>>>(o, 1000);
  shared_value<<<8, 128>>>(o, 1000);
  return 0;
}
