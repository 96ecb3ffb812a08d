// A name the device compilation defines differently from the host side
// that tfuse parses (under `#ifdef __CUDA_ARCH__`, or a condition on the
// architecture) makes a kernel that reaches it refused: read host-side,
// `lane_of()` below returns 0, and a coarsened kernel would store the
// physical thread index where the original stores the logical one.  So is
// a helper or macro whose text mentions such a name, and a kernel whose
// own text tests the target (NV_IF_TARGET).  A region no target compiles
// (a condition `defined(X)` with X defined nowhere, or one on the compiler's
// version that no architecture meets) decides nothing, and a kernel that
// reaches no such name is coarsened; one only some architectures compile
// (`__CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900`: neither the host nor
// sm_90) still decides.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.in.cu -o %t.thread.cu 2> %t.thread.err
// RUN: FileCheck --check-prefix=ERR %s < %t.thread.err
// RUN: FileCheck --check-prefix=OUT %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.block.cu 2> %t.block.err
// RUN: FileCheck --check-prefix=ERR %s < %t.block.err
// RUN: %nvcc-check %t.block.cu

// ERR-DAG: :[[#@LINE+59]]:12: warning: kernel 'by_helper' left unchanged: call to 'lane_of', whose text tests the compilation target (__CUDA_ARCH__, NV_IF_TARGET) or is compiled differently on the device
// ERR-DAG: :[[#@LINE+62]]:12: warning: kernel 'by_macro' left unchanged: 'LANE' ({{.*}}.in.cu:[[#@LINE+25]]) is, or uses, what the device compilation defines differently from the host side tfuse reads
// ERR-DAG: :[[#@LINE+65]]:12: warning: kernel 'by_wrapper' left unchanged: 'TWICE_LANE' ({{.*}}.in.cu:[[#@LINE+28]]) is, or uses,
// ERR-DAG: :[[#@LINE+68]]:12: warning: kernel 'by_user' left unchanged: call to 'uses_lane', which uses 'LANE' ({{.*}}.in.cu:[[#@LINE+23]]), which is, or uses, what the device compilation defines differently
// ERR-DAG: :[[#@LINE+71]]:12: warning: kernel 'by_specialization' left unchanged: 'pick' ({{.*}}.in.cu:[[#@LINE+32]]) is, or uses,
// ERR-DAG: :[[#@LINE+72]]:1: warning: kernel 'by_target' left unchanged: the kernel's text tests the compilation target
// ERR-DAG: warning: kernel 'by_ampere' left unchanged: 'twist' ({{.*}}.in.cu:[[#@LINE+48]]) is, or uses,
// ERR-NOT: kernel 'plain' left unchanged
// ERR-NOT: kernel 'old_compiler' left unchanged
// ERR-NOT: kernel 'dead_branch' left unchanged

// OUT-LABEL: __global__ void plain(
// OUT: out[i_1] = 2 * in[i_1];
// OUT-LABEL: __global__ void dead_branch(
// OUT: out[i_1] = halve(in[i_1]);
// OUT-LABEL: __global__ void old_compiler(
// OUT: out[i_1] = third(in[i_1]);
#include <nv/target>

#ifdef __CUDA_ARCH__
__device__ int lane_of() { return threadIdx.x; }
#else
__device__ int lane_of() { return 0; }
#endif

#ifdef __CUDA_ARCH__
#define LANE threadIdx.x
#else
#define LANE 0
#endif
#define TWICE_LANE (2 * LANE)

__device__ int uses_lane() { return LANE + 1; }

template <class T> __device__ T pick(T v) { return v; }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
template <> __device__ int pick<int>(int v) { return v + (int)threadIdx.x; }
#endif

#if defined(TFUSE_TEST_NEVER_DEFINED) && __CUDA_ARCH__ < 800
__device__ int halve(int v) { return v / (int)threadIdx.x; }
#else
__device__ int halve(int v) { return v / 2; }
#endif

#define TFUSE_TEST_ON 1
#if defined(TFUSE_TEST_ON) && (__CUDACC_VER_MAJOR__ < 12) && __CUDA_ARCH__ < 800
__device__ int third(int v) { return v / (int)threadIdx.x; }
#else
__device__ int third(int v) { return v / 3; }
#endif

template <class T> __device__ T twist(T v) { return v; }
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900
template <> __device__ int twist<int>(int v) { return v + (int)threadIdx.x; }
#endif

__global__ void by_helper(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = lane_of();
}
__global__ void by_macro(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = LANE;
}
__global__ void by_wrapper(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = TWICE_LANE;
}
__global__ void by_user(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = uses_lane();
}
__global__ void by_specialization(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = pick(i);
}
__global__ void by_target(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 0;
  NV_IF_TARGET(NV_IS_DEVICE, (v = threadIdx.x;), (v = 0;))
  out[i] = v;
}
__global__ void plain(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2 * in[i];
}
__global__ void dead_branch(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = halve(in[i]);
}

__global__ void old_compiler(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = third(in[i]);
}
__global__ void by_ampere(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = twist(i);
}

int main() {
  by_helper<<<2, 64>>>(0);
  by_macro<<<2, 64>>>(0);
  by_wrapper<<<2, 64>>>(0);
  by_user<<<2, 64>>>(0);
  by_specialization<<<2, 64>>>(0);
  by_target<<<2, 64>>>(0);
  plain<<<2, 64>>>(0, 0);
  dead_branch<<<2, 64>>>(0, 0);
  old_compiler<<<2, 64>>>(0, 0);
  by_ampere<<<2, 64>>>(0);
}
