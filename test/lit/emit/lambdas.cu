// A lambda bound to a local of the kernel is a value per copy: its
// declaration is emitted once per copy, the body rendered for the copy
// (varying names renamed, indices renumbered), and each call calls the
// copy's own closure under the copy's guard.  A by-reference capture
// written in the body makes the variable per copy; a return in the body
// leaves the lambda, not the copy.  `[=]` captures the copy's variables
// (their names in the body are the copy's); a parameter written under
// control that differs between the copies is renamed with its uses.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2,2 -dim x,y -mode block %t.in.cu -o %t.xy.cu
// RUN: FileCheck --check-prefix=XY %s < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu

#pragma tfuse coarsen
__global__ void lambdas(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  auto gid = [=](int j) { return j + blockIdx.x * blockDim.x + threadIdx.x; };
  auto add = [&](int j) { if (j >= n) return; acc += in[j]; };
  auto twice = [](float v) { return 2.f * v; };
  auto off = [=](int j) { return i + j; };
  auto clampi = [&](int j) { if (j > i) j = i; return j; };
  if (i < n) {
    add(gid(0));
    add(off(1) / 2);
  }
  out[i] = twice(acc) + clampi(n);
}

int main() {
  float *o = 0, *in = 0;
  lambdas<<<dim3(4, 2), dim3(64, 2)>>>(o, in, 256);
}

// BLOCK:      float acc_0 = 0.f;
// BLOCK-NEXT: float acc_1 = 0.f;
// BLOCK-NEXT: auto gid_0 = [=](int j) { return j + (blockIdx.x * 2) * blockDim.x + threadIdx.x; };
// BLOCK-NEXT: auto gid_1 = [=](int j) { return j + (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x; };
// BLOCK-NEXT: auto add_0 = [&](int j) { if (j >= n) return; acc_0 += in[j]; };
// BLOCK-NEXT: auto add_1 = [&](int j) { if (j >= n) return; acc_1 += in[j]; };
// BLOCK-NEXT: auto twice_0 = [](float v) { return 2.f * v; };
// BLOCK-NEXT: auto twice_1 = [](float v) { return 2.f * v; };
// BLOCK-NEXT: auto off_0 = [=](int j) { return i_0 + j; };
// BLOCK-NEXT: auto off_1 = [=](int j) { return i_1 + j; };
// BLOCK-NEXT: auto clampi_0 = [&](int j_0) { if (j_0 > i_0) j_0 = i_0; return j_0; };
// BLOCK-NEXT: auto clampi_1 = [&](int j_1) { if (j_1 > i_1) j_1 = i_1; return j_1; };
// BLOCK:      if (__tf_p1_0) add_0(gid_0(0));
// BLOCK-NEXT: if (__tf_p1_1) add_1(gid_1(0));
// BLOCK-NEXT: if (__tf_p1_0) add_0(off_0(1) / 2);
// BLOCK-NEXT: if (__tf_p1_1) add_1(off_1(1) / 2);
// BLOCK:      out[i_0] = twice_0(acc_0) + clampi_0(n);
// BLOCK-NEXT: if (__tf_ok_1) out[i_1] = twice_1(acc_1) + clampi_1(n);

// THREAD:      auto gid_0 = [=](int j) { return j + blockIdx.x * (blockDim.x * 2) + (threadIdx.x); };
// THREAD-NEXT: auto gid_1 = [=](int j) { return j + blockIdx.x * (blockDim.x * 2) + (threadIdx.x + 1 * blockDim.x); };
// THREAD-NEXT: auto add_0 = [&](int j) { if (j >= n) return; acc_0 += in[j]; };
// THREAD-NEXT: auto add_1 = [&](int j) { if (j >= n) return; acc_1 += in[j]; };
// THREAD:      if (__tf_p1_0) add_0(gid_0(0));
// THREAD-NEXT: if (__tf_p1_1) add_1(gid_1(0));
// THREAD:      out[i_0] = twice_0(acc_0) + clampi_0(n);
// THREAD-NEXT: out[i_1] = twice_1(acc_1) + clampi_1(n);

// XY:      auto gid_x0y0 = [=](int j) { return j + (blockIdx.x * 2) * blockDim.x + threadIdx.x; };
// XY-NEXT: auto gid_x1y0 = [=](int j) { return j + (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x; };
// XY-NEXT: auto gid_x0y1 = [=](int j) { return j + (blockIdx.x * 2) * blockDim.x + threadIdx.x; };
// XY-NEXT: auto gid_x1y1 = [=](int j) { return j + (blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x; };
// XY:      add_x1y1(gid_x1y1(0));
