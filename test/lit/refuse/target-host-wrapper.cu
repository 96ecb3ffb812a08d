// A function the device cannot call (neither __device__ nor __global__,
// not constexpr) mentions names only for the host: a host wrapper that
// launches a kernel reaching a target name does not make its own name one.
// cuda-samples' reduction has such a wrapper, `reduce`, and its
// cooperative-groups kernels call `cg::reduce`: names are compared as
// spelled, so before this rule they were refused.  A __host__ __device__
// function still carries what it mentions.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// ERR-DAG: warning: kernel 'by_lane' left unchanged: call to 'lane_of', which uses 'LANE'
// ERR-DAG: warning: kernel 'by_both' left unchanged: call to 'both', which uses 'LANE'
// ERR-NOT: kernel 'by_name' left unchanged

// CHECK-LABEL: __global__ void by_name(
// CHECK: if (__tf_p1_0) out[i_0] = other::reduce(in[i_0]) + other::reduce_t(in[i_0]);
// CHECK: if (__tf_p1_1) out[i_1] = other::reduce(in[i_1]) + other::reduce_t(in[i_1]);
#ifdef __CUDA_ARCH__
#define LANE threadIdx.x
#else
#define LANE 0
#endif

__device__ int lane_of() { return LANE; }

__global__ void by_lane(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = lane_of(); }

void reduce(int *out, int n) { by_lane<<<n / 32, 32>>>(out); }
template <class T> void reduce_t(T *out, int n) { by_lane<<<n / 32, 32>>>(out); }

namespace other {
__device__ int reduce(int v) { return v + 1; }
template <class T> __device__ T reduce_t(T v) { return v + 2; }
}

__global__ void by_name(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = other::reduce(in[i]) + other::reduce_t(in[i]);
}

__host__ __device__ int both(int v) { return v + LANE; }

__global__ void by_both(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = both(in[i]);
}

void launch(int *out, const int *in, int n) {
  by_name<<<n / 64, 64>>>(out, in, n);
  by_both<<<n / 64, 64>>>(out, in, n);
}
