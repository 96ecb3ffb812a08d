// Block mode: before a launch whose block clang cannot bound to 256
// threads, the prelude checks that the merged block, whose threads now do K
// logical blocks' work each, still fits the device's registers
// (block_fits: a located stop instead of "too many resources requested for
// launch").  No check where it cannot fail (a constant block of 256 threads
// or fewer, a kernel with __launch_bounds__), nor where the launch does not
// name one function (a template whose arguments are deduced, partly or
// wholly) or the block extent may have effects.  An overloaded name (two
// kernels, or a host function named as its kernel) is cast to the
// coarsened kernel's type, spelled from its parameters.  A
// template kernel whose launch deduces its arguments cannot opt in above
// 48 KB of dynamic shared memory: dyn_shared_unnamed stops there with the
// reason.
// REQUIRES: nvcc
// RUN: sed 's#^ *//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 4 -mode block -all-kernels %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

__global__ void k(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

__global__ void __launch_bounds__(1024) bounded(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

template <class T> __global__ void t(T *a, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = a[i];
  __syncthreads();
  if (i < n) a[i] = s[blockDim.x - 1 - threadIdx.x];
}

template <int B, class T> __global__ void p(T *a, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n) a[i] += 1;
}

__global__ void o(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0;
}
__global__ void o(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0;
}

int pick(int);

__global__ void launcher(float *a, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  if (i < n) a[i] = s[blockDim.x - 1 - threadIdx.x];
}

// CHECK-LABEL: void host(float *a, int n, int bs) {
void host(float *a, int n, int bs) {
  // CHECK: { const dim3 __tf_grid = ((n + bs - 1) / bs); ::tfuse_rt::block_fits(k, bs, 4u, "k", "{{.*}}:[[@LINE+1]]"); k<<<
  k<<<(n + bs - 1) / bs, bs>>>(a, n);
  // CHECK: ::tfuse_rt::block_fits(k, dim3(bs, 2), 4u, "k", "{{.*}}:[[@LINE+1]]"); k<<<
  k<<<n, dim3(bs, 2)>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 256>>>
  k<<<n, 256>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), pick(bs)>>>
  k<<<n, pick(bs)>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), bs = 128>>>
  k<<<n, bs = 128>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); bounded<<<
  bounded<<<n, bs>>>(a, n);
  // CHECK: ::tfuse_rt::dyn_shared_unnamed(4u * (size_t)__tf_dsmem, 4u, "t", "{{.*}}:[[@LINE+1]]"); t<<<
  t<<<n, bs, bs * sizeof(float)>>>(a, n);
  // CHECK: ::tfuse_rt::dyn_shared_opt_in(t<float>, 4u * (size_t)__tf_dsmem); ::tfuse_rt::block_fits(t<float>, bs, 4u, "t", "{{.*}}:[[@LINE+1]]"); t<float><<<
  t<float><<<n, bs, bs * sizeof(float)>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); p<256><<<
  p<256><<<n, bs>>>(a, n);
  // CHECK: ::tfuse_rt::block_fits(p<256, float>, bs, 4u, "p", "{{.*}}:[[@LINE+1]]"); p<256, float><<<
  p<256, float><<<n, bs>>>(a, n);
  // CHECK: ::tfuse_rt::block_fits(static_cast<void (*)(unsigned int, float *a, int n)>(o), bs, 4u, "o", "{{.*}}:[[@LINE+1]]"); o<<<
  o<<<n, bs>>>(a, n);
}

// CHECK-LABEL: void launcher(float *a, int n, int bs) {
// CHECK: ::tfuse_rt::dyn_shared_opt_in(static_cast<void (*)(unsigned int, unsigned int, float *a, int n)>(launcher), 4u * (size_t)__tf_dsmem); ::tfuse_rt::block_fits(static_cast<void (*)(unsigned int, unsigned int, float *a, int n)>(launcher), bs, 4u, "launcher", "{{.*}}:[[@LINE+2]]"); launcher<<<
void launcher(float *a, int n, int bs) {
  launcher<<<n, bs, bs * sizeof(float)>>>(a, n);
}

// Before the kernel's definition its parameters' types may not be declared:
// no cast there.
// CHECK-LABEL: void early(float *a, int n, int bs) {
// CHECK: ::tfuse_rt::dyn_shared_unnamed(4u * (size_t)__tf_dsmem, 4u, "early", "{{.*}}:[[@LINE+3]]"); early<<<
__global__ void early(float *a, int n);
void early(float *a, int n, int bs) {
  early<<<n, bs, bs * sizeof(float)>>>(a, n);
}
__global__ void early(float *a, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  if (i < n) a[i] = s[blockDim.x - 1 - threadIdx.x];
}

// A kernel in a namespace: its parameters' types may need the namespace at
// the launch, so no cast (and no thread check).
namespace img {
__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 3.0f;
}
void scale(float *a, int n, int bs);
}
// CHECK-LABEL: void img::scale(float *a, int n, int bs) {
// CHECK-NEXT: { const dim3 __tf_grid = (n); scale<<<
void img::scale(float *a, int n, int bs) {
  scale<<<n, bs>>>(a, n);
}
