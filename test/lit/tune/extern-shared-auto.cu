// -factor auto with an extern __shared__ array: a block-mode candidate
// divides the launch's dynamic shared memory among its logical blocks, as
// a fixed factor does (launch/dyn-shared-*): the variant takes the share
// after the grid extent, and its case of the dispatch asks for K shares of
// the launch's size, each rounded up to 16 bytes, and passes one; its entry
// in the candidate table adds `1, (const void *)k__tf_bx2`, with which the
// runtime skips it where the shares and its static bytes pass what the
// device allows, and opts it in above 48 KB (runtime/src/tune.cpp).  A
// thread-mode candidate keeps the launch's size (one logical block per
// block), its entry as before.  A template kernel whose launch deduces its
// arguments cannot be named alone: its entry says 0, and the runtime then
// keeps the shares within 48 KB.  The key's size stays the launch's own.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -tune-space "block.x:2,4 thread.x:2" -all-kernels -factor auto %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK: __global__ void rev__tf_bx2(unsigned int __tf_grid_x, unsigned int __tf_dsmem, const float *in, float *out, int n);

// CHECK:      { const dim3 __tf_grid = ((n + 255) / 256); const dim3 __tf_block = (256);
// CHECK-NEXT:   const size_t __tf_smem = (256 * sizeof(float)); const cudaStream_t __tf_stream = (0);
// CHECK-NEXT:   static const tfuse_tune_cand __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2", 1, (const void *)rev__tf_bx2}, {1, 0, 4u, "block.x:4", 1, (const void *)rev__tf_bx4}, {2, 0, 2u, "thread.x:2"}};
// CHECK:          default: rev__tf_k1<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(in, out, n); break;
// CHECK-NEXT:     case 1: rev__tf_bx2<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, 2u * (size_t)::tfuse_rt::dyn_share(__tf_smem), __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::dyn_share(__tf_smem), in, out, n); break;
// CHECK-NEXT:     case 2: rev__tf_bx4<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, 4u * (size_t)::tfuse_rt::dyn_share(__tf_smem), __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::dyn_share(__tf_smem), in, out, n); break;
// CHECK-NEXT:     case 3: rev__tf_tx2<<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "rev", "{{.*}}"), __tf_smem, __tf_stream>>>(in, out, n); break;
// CHECK:        ::tfuse_rt::Tune __tf_tune(&__tf_site, __tf_grid, __tf_block, __tf_smem, __tf_stream);

// CHECK:      __global__ void rev__tf_bx2(unsigned int __tf_grid_x, unsigned int __tf_dsmem, const float *in, float *out, int n) {
// CHECK:        decltype(&buf[0]) const buf_1 = (decltype(&buf[0]))((char *)buf + 1 * (size_t)__tf_dsmem);

// CHECK:        static const tfuse_tune_cand __tf_cands[] = {{[{][{]}}0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2", 1, 0}, {1, 0, 4u, "block.x:4", 1, 0}, {2, 0, 2u, "thread.x:2"}};
// CHECK:          case 1: trev__tf_bx2<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, 2u * (size_t)::tfuse_rt::dyn_share(__tf_smem), __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), ::tfuse_rt::dyn_share(__tf_smem), in, out, n); break;

__global__ void rev(const float *in, float *out, int n);

void run(const float *in, float *out, int n) {
  rev<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);
}

__global__ void rev(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

template <class T> __global__ void trev(const T *in, T *out, int n) {
  extern __shared__ unsigned char raw[];
  T *buf = (T *)raw;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  if (i < n)
    out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

void run_t(const float *in, float *out, int n) {
  trev<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);
}
