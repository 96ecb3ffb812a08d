// A header that only one side includes (`#ifdef __CUDA_ARCH__ #include
// ...`) counts as skipped whole by the other: a helper of the host's
// header, which the device replaces, and a name the device's header
// declares (here an overload the device's calls choose) refuse the
// kernels that reach them, whether the headers are files of the project
// (under the input's folder) or not; a kernel that reaches neither is
// coarsened.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels -I %S/Inputs %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.cu
// RUN: %nvcc-check -I %S/Inputs %t.cu
// RUN: rm -rf %t.d && mkdir -p %t.d && cp %S/Inputs/target-device.cuh %S/Inputs/target-host.cuh %t.d/
// RUN: sed 's#^//.*##' %s > %t.d/in.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.d/in.cu -o %t.d/out.cu 2> %t.d/err
// RUN: FileCheck --check-prefix=ERR %s < %t.d/err
// RUN: FileCheck --check-prefix=OUT %s < %t.d/out.cu

// ERR-DAG: :[[#@LINE+15]]:12: warning: kernel 'by_host_header' left unchanged: {{(call to )?}}'lane_of'{{.*}} device
// ERR-DAG: :[[#@LINE+18]]:12: warning: kernel 'by_device_header' left unchanged: 'pick' (in a header that only one of the host and device compilations includes) is, or uses, what the device compilation defines differently
// ERR-NOT: kernel 'plain' left unchanged

// OUT-LABEL: __global__ void plain(
// OUT: out[i_1] = 2 * in[i_1];
#ifdef __CUDA_ARCH__
#include "target-device.cuh"
#else
#include "target-host.cuh"
#endif
__device__ inline int pick(long v) { return (int)v; }

__global__ void by_host_header(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = lane_of();
}
__global__ void by_device_header(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = pick(i);
}
__global__ void plain(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2 * in[i];
}
int main() {
  by_host_header<<<2, 64>>>(0);
  by_device_header<<<2, 64>>>(0);
  plain<<<2, 64>>>(0, 0);
}
