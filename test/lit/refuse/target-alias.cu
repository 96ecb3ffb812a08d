// What the device compiles is compared with the host's reading through
// whatever a kernel reaches, however the target is named: an alias of
// __CUDA_ARCH__ in a condition (`#define APP_ARCH __CUDA_ARCH__`, `#if
// APP_ARCH >= 800`), a flag defined under `#ifdef __CUDA_ARCH__` and tested
// with `#ifdef`/`defined()`, the alias's value in a plain `if`, a macro
// defined in terms of such a macro (DEV_GID), NV_IF_TARGET with an
// architecture, a configuration header outside the root (not a project
// file: no name of it is read as the target's, only the expansion is
// compared), with a helper of its own, and a predefined macro the sides
// differ in (LDBL_DIG: the device's long double is a double).  Each such
// kernel is refused at the name its text uses, with the definition the
// device reads and the macro through which it differs.  A macro that
// differs but that no kernel reaches (HOST_TAG, used by main only) refuses
// nothing: `plain` and `same_cfg` (a macro of the same header that does not
// differ) are coarsened, in both modes.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.in.cu -o %t.thread.cu -- -I%S/Inputs 2> %t.thread.err
// RUN: FileCheck --check-prefix=ERR %s < %t.thread.err
// RUN: FileCheck --check-prefixes=OUT,THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu -I%S/Inputs
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.block.cu -- -I%S/Inputs 2> %t.block.err
// RUN: FileCheck --check-prefix=ERR %s < %t.block.err
// RUN: FileCheck --check-prefixes=OUT,BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu -I%S/Inputs

// ERR-DAG: :[[#@LINE+50]]:12: warning: kernel 'by_alias' left unchanged: 'GID' ({{.*}}.in.cu:[[#@LINE+24]]) is, or uses, what the device compilation defines differently from the host side tfuse reads: the kernel's reading may be wrong
// ERR-DAG: :[[#@LINE+53]]:12: warning: kernel 'by_flag' left unchanged: 'LANE' ({{.*}}.in.cu:[[#@LINE+34]]) is, or uses, what the device compilation defines differently
// ERR-DAG: :[[#@LINE+56]]:12: warning: kernel 'by_derived' left unchanged: 'DEV_GID' ({{.*}}.in.cu:[[#@LINE+37]]) is, or uses, what the device compilation defines differently
// ERR-DAG: :[[#@LINE+59]]:7: warning: kernel 'by_if' left unchanged: 'ARCH_NUM' ({{.*}}.in.cu:[[#@LINE+39]]) is, or uses, what the device compilation defines differently
// ERR-DAG: :[[#@LINE+62]]:1: warning: kernel 'by_nv_target' left unchanged: the kernel's text tests the compilation target
// ERR-DAG: :[[#@LINE+68]]:12: warning: kernel 'by_config' left unchanged: 'MY_LANE' ({{.*}}.in.cu:[[#@LINE+41]], through 'CFG_LANE') is, or uses, what the device compilation defines differently
// ERR-DAG: :[[#@LINE+75]]:16: warning: kernel 'by_long_double' left unchanged: 'LDBL_DIG' ({{.*}}float.h:{{[0-9]+}}, through '__LDBL_DIG__') is, or uses, what the device compilation defines differently
// ERR-DAG: :[[#@LINE+70]]:12: warning: kernel 'by_config_helper' left unchanged: call to 'cfg_lane_of', which uses 'CFG_LANE' ({{.*}}target-alias-config.h:8), which is, or uses, what the device compilation defines differently
// ERR-NOT: kernel 'plain' left unchanged
// ERR-NOT: kernel 'same_cfg' left unchanged

// OUT-LABEL: __global__ void plain(
// THREAD: out[i_1] = 2 * i_1;
// BLOCK: if (__tf_ok_1) out[i_1] = 2 * i_1;
// OUT-LABEL: __global__ void same_cfg(
// THREAD: out[i_1] = CFG_SAME(i_1);
// BLOCK: if (__tf_ok_1) out[i_1] = CFG_SAME(i_1);
#include <nv/target>
#include <cfloat>
#include <cstdio>
#include "target-alias-config.h"

#define APP_ARCH __CUDA_ARCH__
#if APP_ARCH >= 800
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define HOST_TAG "device"
#else
#define GID (blockIdx.x * blockDim.x)
#define HOST_TAG "host"
#endif

#ifdef __CUDA_ARCH__
#define MY_DEVICE
#endif
#if defined(MY_DEVICE)
#define LANE (threadIdx.x & 31)
#else
#define LANE 0
#endif
#define DEV_GID GID

#ifdef __CUDA_ARCH__
#define ARCH_NUM __CUDA_ARCH__
#else
#define ARCH_NUM 0
#endif
#define MY_LANE CFG_LANE

__global__ void by_alias(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = GID;
}
__global__ void by_flag(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = LANE;
}
__global__ void by_derived(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = DEV_GID;
}
__global__ void by_if(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = 0;
  if (ARCH_NUM >= 800)
    v = threadIdx.x;
  out[i] = v;
}
__global__ void by_nv_target(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = 0;
  NV_IF_TARGET(NV_PROVIDES_SM_80, (v = threadIdx.x;));
  out[i] = v;
}
__global__ void by_config(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = MY_LANE;
}
__global__ void by_config_helper(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = cfg_lane_of();
}
__global__ void by_long_double(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i + LDBL_DIG;
}
__global__ void plain(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2 * i;
}
__global__ void same_cfg(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = CFG_SAME(i);
}
int main() {
  printf("%s\n", HOST_TAG);
  by_alias<<<2, 64>>>(0);
  by_flag<<<2, 64>>>(0);
  by_derived<<<2, 64>>>(0);
  by_if<<<2, 64>>>(0);
  by_nv_target<<<2, 64>>>(0);
  by_config<<<2, 64>>>(0);
  by_config_helper<<<2, 64>>>(0);
  by_long_double<<<2, 64>>>(0);
  plain<<<2, 64>>>(0);
  same_cfg<<<2, 64>>>(0);
}
