// Explicit instantiations of a kernel template (`template __global__ void
// f<float>(...);`, `extern template`) name the template's signature: in
// block mode the coarsened kernel takes the grid extent first, so each
// instantiation's parameter list gets it too (libclang does not list
// explicit instantiations among declarations: tfuse finds them in the
// text, comments and strings aside).  Thread mode keeps the signature.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -all-kernels %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -all-kernels %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// BLOCK: template __global__ void f<float>(unsigned int, float *o, int n);
// BLOCK-NEXT: template __global__ void f< double >(unsigned int, double *, int);
// BLOCK-NEXT: extern template __global__ void f<int>(unsigned int, int *, int);
// BLOCK: const char *text = "template __global__ void f<char>(char *, int);";
// BLOCK: template __global__ void g<float>(unsigned int, float *);
// THREAD: template __global__ void f<float>(float *o, int n);
// THREAD: template __global__ void g<float>(float *);

template <class T>
__global__ void f(T *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = T(1);
}
template __global__ void f<float>(float *o, int n);
template __global__ void f< double >(double *, int);
extern template __global__ void f<int>(int *, int);
const char *text = "template __global__ void f<char>(char *, int);";

template <class T> __global__ void g(T *o) { o[threadIdx.x] = T(2); }
template __global__ void g<float>(float *);

void run(float *o, double *d, int n) {
  f<<<(n + 127) / 128, 128>>>(o, n);
  f<<<n, 64>>>(d, n);
  g<<<n, 32>>>(o);
}
