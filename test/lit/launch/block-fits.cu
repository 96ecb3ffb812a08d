// Block mode: a launch whose block clang cannot bound to 256 threads may
// not fit the device's registers once its threads do K logical blocks'
// work each ("too many resources requested for launch").  Such a launch
// becomes a dispatch: the prelude's serves_threads asks the coarsened
// kernel's limit, and where the block is over it the kept original runs on
// the original grid (k__tf_orig), counted in the site's Fallback record.
// No check where it cannot fail (a constant block of 256 threads or fewer,
// a kernel with __launch_bounds__), nor where the launch does not name one
// function (a template whose arguments are deduced, partly or wholly) or
// the block extent may have effects.  An overloaded name (two kernels, or
// a host function named as its kernel) is cast to the coarsened kernel's
// type, spelled from its parameters.  K dynamic shares are checked against
// the device (serves_shared) and, for a template kernel whose launch
// deduces its arguments and so cannot opt in above 48 KB, against 48 KB
// (serves_shared_unnamed); the original gets the size as written.
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
  // CHECK: { const dim3 __tf_grid = ((n + bs - 1) / bs); static ::tfuse_rt::Fallback __tf_fb("k", "{{.*}}:[[@LINE+1]]"); if (::tfuse_rt::serves_threads(k, bs, __tf_fb)) { k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), bs>>>(::tfuse_rt::grid_extent(__tf_grid, 0), a, n); } else k__tf_orig<<<__tf_grid, bs>>>(a, n); }
  k<<<(n + bs - 1) / bs, bs>>>(a, n);
  // CHECK: if (::tfuse_rt::serves_threads(k, dim3(bs, 2), __tf_fb)) { k<<<{{.*}} else k__tf_orig<<<__tf_grid, dim3(bs, 2)>>>(a, n); }
  k<<<n, dim3(bs, 2)>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 256>>>
  k<<<n, 256>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), pick(bs)>>>
  k<<<n, pick(bs)>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), bs = 128>>>
  k<<<n, bs = 128>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); bounded<<<
  bounded<<<n, bs>>>(a, n);
  // CHECK: const size_t __tf_smem = (bs * sizeof(float)); const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); if (::tfuse_rt::serves_shared_unnamed(4u * (size_t)__tf_dsmem, __tf_fb)) { t<<<{{.*}} } else t__tf_orig<<<__tf_grid, bs, __tf_smem>>>(a, n); }
  t<<<n, bs, bs * sizeof(float)>>>(a, n);
  // CHECK: if (::tfuse_rt::serves_threads(t<float>, bs, __tf_fb) && ::tfuse_rt::serves_shared(t<float>, 4u * (size_t)__tf_dsmem, __tf_fb)) { ::tfuse_rt::dyn_shared_opt_in(t<float>, 4u * (size_t)__tf_dsmem); t<float><<<{{.*}} else t__tf_orig<float><<<__tf_grid, bs, __tf_smem>>>(a, n); }
  t<float><<<n, bs, bs * sizeof(float)>>>(a, n);
  // CHECK: { const dim3 __tf_grid = (n); p<256><<<
  p<256><<<n, bs>>>(a, n);
  // CHECK: if (::tfuse_rt::serves_threads(p<256, float>, bs, __tf_fb)) { p<256, float><<<{{.*}} else p__tf_orig<256, float><<<__tf_grid, bs>>>(a, n); }
  p<256, float><<<n, bs>>>(a, n);
  // CHECK: if (::tfuse_rt::serves_threads(static_cast<void (*)(unsigned int, float *a, int n)>(o), bs, __tf_fb)) { o<<<{{.*}} else o__tf_orig<<<__tf_grid, bs>>>(a, n); }
  o<<<n, bs>>>(a, n);
}

// CHECK-LABEL: void launcher(float *a, int n, int bs) {
// CHECK: __tf_fb("launcher", "{{.*}}:[[@LINE+2]]"); {{.*}} if (::tfuse_rt::serves_threads(static_cast<void (*)(unsigned int, unsigned int, float *a, int n)>(launcher), bs, __tf_fb) && ::tfuse_rt::serves_shared(static_cast<void (*)(unsigned int, unsigned int, float *a, int n)>(launcher), 4u * (size_t)__tf_dsmem, __tf_fb)) { ::tfuse_rt::dyn_shared_opt_in(static_cast<void (*)(unsigned int, unsigned int, float *a, int n)>(launcher), 4u * (size_t)__tf_dsmem); launcher<<<
void launcher(float *a, int n, int bs) {
  launcher<<<n, bs, bs * sizeof(float)>>>(a, n);
}

// Before the kernel's definition its parameters' types may not be declared:
// no cast there.
// CHECK-LABEL: void early(float *a, int n, int bs) {
// CHECK: __tf_fb("early", "{{.*}}:[[@LINE+3]]"); {{.*}} if (::tfuse_rt::serves_shared_unnamed(4u * (size_t)__tf_dsmem, __tf_fb)) { early<<<{{.*}} else early__tf_orig<<<__tf_grid, bs, __tf_smem>>>(a, n); }
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
