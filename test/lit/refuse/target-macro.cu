// A macro whose body tests the compilation target (`NV_IF_ELSE_TARGET`)
// is the target's even in a file with no directive that tests it: read
// host-side, `DEV_SEL(i, 0)` is 0, a value the same for every copy, where
// the device computes i.  A kernel that uses it, or a macro that does, is
// refused at the use; one that does not is coarsened.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: FileCheck --check-prefix=OUT %s < %t.cu
// RUN: %nvcc-check %t.cu

// ERR: :[[#@LINE+12]]:11: warning: kernel 'selects' left unchanged: 'DEV_SEL' ({{.*}}.in.cu:[[#@LINE+7]]) is, or uses, what the device compilation defines differently
// ERR: :[[#@LINE+16]]:11: warning: kernel 'wraps' left unchanged: 'SEL_I' ({{.*}}.in.cu:[[#@LINE+7]]) is, or uses,
// ERR-NOT: kernel 'plain' left unchanged

// OUT-LABEL: __global__ void plain(
// OUT: out[i_1] = i_1;
#include <nv/target>
#define DEV_SEL(a, b) NV_IF_ELSE_TARGET(NV_IS_DEVICE, (a), (b))
#define SEL_I(i) DEV_SEL(i, 0)

__global__ void selects(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = DEV_SEL(i, 0);
  out[i] = v;
}
__global__ void wraps(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = SEL_I(i);
  out[i] = v;
}
__global__ void plain(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
}
int main() {
  selects<<<2, 64>>>(0);
  wraps<<<2, 64>>>(0);
  plain<<<2, 64>>>(0);
}
