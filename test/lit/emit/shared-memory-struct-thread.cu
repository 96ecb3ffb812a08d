// Thread mode keeps one block's shared memory, so shared memory declared
// outside the kernel (cuda-samples' SharedMemory<T>, a helper's static
// array) is named as written; the copies index it with their own logical
// threads.  (Block mode refuses it: refuse/shared-outside-kernel.cu.)
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

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

int main() {
  int *a = 0, *b = 0;
  reduce0<int><<<13, 128, 128 * sizeof(int)>>>(a, b, 1000);
}

// CHECK-LABEL: __global__ void reduce0(
// CHECK:       T *sdata = SharedMemory<T>();
// CHECK:       unsigned int tid_1 = (threadIdx.x + 1 * blockDim.x);
// CHECK:       sdata[tid_1] = (i_1 < n) ? g_idata[i_1] : 0;
// CHECK:       if (__tf_p1_1) sdata[tid_1] += sdata[tid_1 + s];
// CHECK:       reduce0<int><<<13, ::tfuse_rt::coarsen_block(128, 0, 2u, "reduce0", "{{.*}}"), 128 * sizeof(int)>>>(a, b, 1000);
