// A guarded load whose value is a proxy reference (thrust::device_ptr's
// operator[] returns a device_reference<T>: a value_type, no default
// constructor, a conversion to T) yields, in an inactive copy, a zero of
// the proxy's value type (prelude zero_of), to which the loaded value
// converts; `__tf_zero<device_reference<const int>>()` did not compile
// (HeCBench remap).  The proxy here has the same shape as thrust's.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block %t.in.cu -o %t.block.cu
// RUN: FileCheck %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK: template <class T> __host__ __device__ inline typename zero_of<T>::type __tf_zero() {
// CHECK: int idx_1 = TFUSE_GUARD(__tf_ok_1 && __tf_live_1, order[i_1]);

template <class T> struct proxy_ref {
  typedef T value_type;
  const T *p;
  __host__ __device__ explicit proxy_ref(const T *q) : p(q) {}
  __host__ __device__ operator T() const { return *p; }
};
template <class T> struct proxy_ptr {
  const T *p;
  __host__ __device__ proxy_ref<T> operator[](int i) const { return proxy_ref<T>(p + i); }
};

#pragma tfuse coarsen
__global__ void remap(proxy_ptr<int> order, int *out, int k) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= k)
    return;
  int idx = order[i];
  out[idx] = i;
}

void run(proxy_ptr<int> order, int *out, int k) { remap<<<(k + 127) / 128, 128>>>(order, out, k); }
