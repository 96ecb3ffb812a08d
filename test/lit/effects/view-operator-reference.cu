// A class that holds a pointer (a view over memory) may return from a
// method a reference into the memory it points to, not into itself:
// `v[t] = x` with `float &operator[](int i) { return p[i]; }` writes what p
// points to.  Built over a __shared__ array, that array must be replicated
// per logical block in block mode, and tfuse cannot follow the pointer into
// the view: the kernel is refused, naming the array (before, the store read
// as a write of the local view alone, the array was shared by the K
// logical blocks and read once as uniform: a silent miscompile).  Thread
// mode keeps the one array and is exact.  A class without pointers
// (`Packed`: an array member) returns references into itself, as before.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse -factor 2 %t.in.cu -o %t.block.cu 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not test -e %t.block.cu
// RUN: %tfuse -factor 2 -keep-going %t.in.cu -o %t.kept.cu 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: FileCheck %s --check-prefix=PACKED < %t.kept.cu
// RUN: %nvcc-check %t.kept.cu
// RUN: %tfuse -mode thread -factor 2 %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// BLOCK: .in.cu:[[# @LINE + 22]]:10: error: the address of __shared__ 'sh' escapes; it must be replicated per logical block and tfuse cannot follow the pointer
// KEPT: 1 coarsened, 1 left unchanged
// PACKED-LABEL: __global__ void packed(
// PACKED:      Packed q_0;
// PACKED-NEXT: Packed q_1;
// THREAD-LABEL: __global__ void view(
// THREAD:      __shared__ float sh[128];
// THREAD:      v_0[t_0] = in[
// THREAD-NEXT: v_1[t_1] = in[

struct View {
  float *p;
  __device__ float &operator[](int i) { return p[i]; }
};
struct Packed {
  float v[4];
  __device__ float &operator[](int i) { return v[i]; }
};

#pragma tfuse coarsen
__global__ void view(float *out, const float *in) {
  __shared__ float sh[128];
  View v{sh};
  int t = threadIdx.x;
  v[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = sh[(t + 1) % blockDim.x];
}

#pragma tfuse coarsen
__global__ void packed(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Packed q;
  for (int k = 0; k < 4; k++)
    q[k] = in[4 * i + k];
  out[i] = q[0] + q[1] + q[2] + q[3];
}

void run(float *o, const float *in, int n) {
  view<<<n / 128, 128>>>(o, in);
  packed<<<n / 512, 128>>>(o, in);
}
