// cuda-samples' SharedMemory<T>: `T *sdata = SharedMemory<T>();`, where the
// conversion operator returns an `extern __shared__` array (in a template
// kernel the conversion has no call in the text).  Such a local pointer,
// reaching dynamic shared memory only through a call that reads no changed
// index and writes nothing, and assigned nowhere else, is a view of the
// dynamic shared memory: block mode moves copy r's to share r, as a kernel's
// own extern array, and the launch asks for K shares (also for a helper
// returning an extern array, beside the kernel's own).  Thread mode keeps
// one block's shared memory: named as written.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 4 %t.in.cu -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2,2 -dim x,y %t.in.cu -o %t.xy.cu
// RUN: FileCheck --check-prefix=XY %s < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

__device__ float *dyn_base() {
  extern __shared__ float dbase[];
  return dbase;
}

#pragma tfuse coarsen
template <class T>
__global__ void reduce0(const T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

#pragma tfuse coarsen
__global__ void helper_view(float *out) {
  float *f = dyn_base();
  int *a = SharedMemory<int>();
  extern __shared__ float own[];
  f[threadIdx.x] = blockIdx.x;
  a[threadIdx.x + 2 * blockDim.x] = (int)blockIdx.x;
  own[threadIdx.x + blockDim.x] = 2.0f * blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = f[threadIdx.x ^ 1] + own[(threadIdx.x ^ 1) + blockDim.x] +
                                               a[(threadIdx.x ^ 3) + 2 * blockDim.x];
}

int main() {
  int *a = 0, *b = 0;
  float *o = 0;
  reduce0<int><<<13, 128, 128 * sizeof(int)>>>(a, b, 1000);
  helper_view<<<13, 96, 3 * 96 * sizeof(float)>>>(o);
}

// BLOCK-LABEL: __global__ void reduce0(unsigned int __tf_grid_x, unsigned int __tf_dsmem,
// BLOCK:       T *sdata_0 = SharedMemory<T>();
// BLOCK-NEXT:  T *sdata_1 = (decltype(sdata_1))((char *)static_cast<decltype(sdata_1)>(SharedMemory<T>()) + 1 * (size_t)__tf_dsmem);
// BLOCK:       T *sdata_3 = (decltype(sdata_3))((char *)static_cast<decltype(sdata_3)>(SharedMemory<T>()) + 3 * (size_t)__tf_dsmem);
// BLOCK:       if (__tf_ok_1) sdata_1[tid] = (i_1 < n) ? g_idata[i_1] : 0;
// BLOCK:       if (__tf_ok_3) sdata_3[tid] += sdata_3[tid + s];
// BLOCK-LABEL: __global__ void helper_view(unsigned int __tf_grid_x, unsigned int __tf_dsmem, float *out) {
// BLOCK:       float *f_2 = (decltype(f_2))((char *)static_cast<decltype(f_2)>(dyn_base()) + 2 * (size_t)__tf_dsmem);
// BLOCK:       int *a_2 = (decltype(a_2))((char *)static_cast<decltype(a_2)>(SharedMemory<int>()) + 2 * (size_t)__tf_dsmem);
// BLOCK:       decltype(&own[0]) const own_2 = (decltype(&own[0]))((char *)own + 2 * (size_t)__tf_dsmem);
// BLOCK:       reduce0<int><<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 128, 4u * (size_t)__tf_dsmem>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_dsmem, a, b, 1000);
// BLOCK:       helper_view<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), 96, 4u * (size_t)__tf_dsmem>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_dsmem, o);

// XY-LABEL: __global__ void reduce0(
// XY:       T *sdata_x1y1 = (decltype(sdata_x1y1))((char *)static_cast<decltype(sdata_x1y1)>(SharedMemory<T>()) + 3 * (size_t)__tf_dsmem);

// THREAD-LABEL: __global__ void reduce0(
// THREAD:       T *sdata = SharedMemory<T>();
// THREAD:       unsigned int tid_1 = (threadIdx.x + 1 * blockDim.x);
// THREAD:       sdata[tid_1] = (i_1 < n) ? g_idata[i_1] : 0;
// THREAD:       if (__tf_p1_1) sdata[tid_1] += sdata[tid_1 + s];
// THREAD:       reduce0<int><<<13, ::tfuse_rt::coarsen_block(128, 0, 2u, "reduce0", "{{.*}}"), 128 * sizeof(int)>>>(a, b, 1000);
