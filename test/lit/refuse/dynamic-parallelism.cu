// Dynamic parallelism: a kernel launched from device code (a child grid,
// `child<<<...>>>` in 'parent', built with -rdc=true) is left unchanged
// with a reason that names the device-side launch: tfuse rescales the
// launches the host makes.  The parent, whose launch starts a grid of its
// own rather than a call its copies make, is refused naming the child.
// -keep-going leaves both as they were, and the output builds.
// REQUIRES: nvcc
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 -kernel child %s -o %t.out -- -rdc=true 2>&1 | FileCheck %s --check-prefix=CHILD
// RUN: test ! -e %t.out
// RUN: not %tfuse -factor 2 -kernel parent %s -o %t.out -- -rdc=true 2>&1 | FileCheck %s --check-prefix=PARENT
// RUN: %tfuse -factor 2 -all-kernels -keep-going %s -o %t.kept.cu -- -rdc=true 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: %nvcc -arch=sm_90 -rdc=true -c %t.kept.cu -o %t.o

// CHILD: dynamic-parallelism.cu:[[#@LINE+13]]:44: error: 'child' is launched here from device code ('parent': dynamic parallelism); tfuse rescales the launches the host makes, so it leaves the kernel unchanged
// PARENT: dynamic-parallelism.cu:[[#@LINE+12]]:44: error: launches 'child' from device code (dynamic parallelism), which tfuse does not coarsen
// KEPT: warning: kernel 'parent' left unchanged: launches 'child' from device code
// KEPT: warning: kernel 'child' left unchanged: 'child' is launched here from device code
// KEPT: 2 kernels: 0 coarsened, 2 left unchanged

__global__ void child(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = 1.0f;
}

__global__ void parent(float *o, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) child<<<(n + 127) / 128, 128>>>(o, n);
}

void run(float *o, int n) { parent<<<1, 32>>>(o, n); }
