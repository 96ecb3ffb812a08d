// Effects in conditions and headers are made once per copy: a side effect
// in a varying if's condition is evaluated by each copy on its own
// variables; an initializer that writes another variable is guarded by the
// copy's predicate; an effect in a uniform loop's increment makes the loop
// one per copy, and so does a varying write in it; `new` allocates per
// copy.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void cond(
// CHECK:      const bool __tf_p2_0 = __tf_p1_0 && (x_0++ < v);
// CHECK-NEXT: const bool __tf_p2_1 = __tf_p1_1 && (x_1++ < v);
// CHECK:      int a_0 = TFUSE_GUARD(__tf_p3_0, c_0++);
// CHECK-NEXT: int a_1 = TFUSE_GUARD(__tf_p3_1, c_1++);
// CHECK-LABEL: __global__ void loopinc(
// CHECK:      for (int j = 0; j < n; j++, atomicAdd(t, 1)) s_0 += j;
// CHECK-NEXT: if (__tf_ok_1) for (int j = 0; j < n; j++, atomicAdd(t, 1)) s_1 += j;
// CHECK-LABEL: __global__ void loopvinc(
// CHECK:      for (int j = 0; j < 6; j++, acc_0 += v_0)
// CHECK:      if (__tf_ok_1) for (int j = 0; j < 6; j++, acc_1 += v_1)
// CHECK-LABEL: __global__ void alloc(
// CHECK:      O *p_0 = new O;
// CHECK-NEXT: O *p_1 = TFUSE_GUARD(__tf_ok_1, new O);

#pragma tfuse coarsen
__global__ void cond(int *out, const int *in, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = 0, hits = 0;
  if (in[i % n] > v) {
    if (x++ < v)
      hits++;
  }
  int c = 0;
  if (i < n) {
    int a = c++;
    out[i] = a + x + hits;
  }
  out[i + n] = c;
}

#pragma tfuse coarsen
__global__ void loopinc(int *out, int *t, int n) {
  int s = 0;
  for (int j = 0; j < n; j++, atomicAdd(t, 1)) s += j;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#pragma tfuse coarsen
__global__ void loopvinc(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i], acc = 0;
  for (int j = 0; j < 6; j++, acc += v)
    out[i] += j;
  out[i] += acc;
}

struct O { int v; };
#pragma tfuse coarsen
__global__ void alloc(int *out) {
  O *p = new O;
  p->v = blockIdx.x;
  out[blockIdx.x] = p->v;
  delete p;
}

void run(int *o, int *in, int *t, int n) {
  cond<<<n, 64>>>(o, in, n, 3);
  loopinc<<<n, 64>>>(o, t, n);
  alloc<<<n, 1>>>(o);
  loopvinc<<<n, 64>>>(o, in);
}
