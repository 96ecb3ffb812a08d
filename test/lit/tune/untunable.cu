// A kernel the tuner must not run several times on a snapshot of its
// pointer arguments is still emitted with its variants, but its site says
// why it is not tuned (the runtime then runs the wisdom entry or the
// original): one that writes a __device__ variable, one that prints, one
// that writes through a pointer tfuse cannot trace to an argument, one
// whose struct argument may carry pointers.  A pointer-and-number kernel
// is tuned (its site's last field is 0), also when a number is an
// enumeration (hec-adam's `adamMode_t mode`, passed by value).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -candidates 2 -kernel g -kernel p -kernel s -kernel r -kernel ok -kernel e -report %t.in.cu -o %t.cu 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// REPORT: remark: -factor auto: 'g' will not be tuned at run time (it writes the global variable 'counter', which the tuner cannot snapshot); it runs its wisdom entry or the original
// REPORT: remark: -factor auto: 'p' will not be tuned at run time (it calls 'printf', whose output each candidate would repeat)
// REPORT: remark: -factor auto: 's' will not be tuned at run time (it writes through a pointer tfuse cannot trace to an argument, which the tuner cannot snapshot)
// REPORT: remark: -factor auto: 'r' will not be tuned at run time (its parameter 'b' is neither a pointer nor a number: memory reached through it cannot be snapshot)
// REPORT-NOT: 'ok' will not be tuned
// REPORT-NOT: 'e' will not be tuned

// CHECK: static tfuse_tune_site __tf_site = {"g", "{{[0-9a-f]+}}", "{{.*}}", 2, __tf_cands, "it writes the global variable 'counter', which the tuner cannot snapshot"};
// CHECK: static tfuse_tune_site __tf_site = {"p", "{{[0-9a-f]+}}", "{{.*}}", 2, __tf_cands, "it calls 'printf', whose output each candidate would repeat"};
// CHECK: static tfuse_tune_site __tf_site = {"s", "{{[0-9a-f]+}}", "{{.*}}", 2, __tf_cands, "it writes through a pointer tfuse cannot trace to an argument, which the tuner cannot snapshot"};
// CHECK: static tfuse_tune_site __tf_site = {"r", "{{[0-9a-f]+}}", "{{.*}}", 2, __tf_cands, "its parameter 'b' is neither a pointer nor a number: memory reached through it cannot be snapshot"};
// CHECK: static tfuse_tune_site __tf_site = {"ok", "{{[0-9a-f]+}}", "{{.*}}", 2, __tf_cands, 0};
// CHECK: static tfuse_tune_site __tf_site = {"e", "{{[0-9a-f]+}}", "{{.*}}", 2, __tf_cands, 0};
#include <cstdio>

__device__ int counter;
struct Buf { float *p; int n; };

__global__ void g(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;
  if (i == 0) counter = 1;
}
__global__ void p(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;
  if (i == 0) printf("hello\n");
}
__global__ void s(float *out, Buf b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n) b.p[i] = out[i];
}
__global__ void r(float *out, Buf b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n) out[i] = 0.0f;
}
__global__ void ok(float *out, double x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)x;
}

enum Mode { ADD, SCALE };
__global__ void e(float *out, Mode mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mode == SCALE ? out[i] * 2.0f : out[i] + 1.0f;
}

void run(float *out, Buf b) {
  g<<<4, 64>>>(out);
  p<<<4, 64>>>(out);
  s<<<4, 64>>>(out, b);
  r<<<4, 64>>>(out, b);
  ok<<<4, 64>>>(out, 2.0, 256);
  e<<<4, 64>>>(out, SCALE, 256);
}
