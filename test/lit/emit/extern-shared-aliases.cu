// Every `extern __shared__` array of a kernel and of the functions it calls
// lies at one address, the start of the block's dynamic shared memory: two
// names written through one and read through the other are one buffer.
// Block mode replicates every such name once one of them is (the same share
// r * __tf_dsmem for each name of copy r), also a view through a function
// (dyn_base()) beside the kernel's own array; -layout interleaved keeps
// dynamic shared memory in shares.  Thread mode keeps the one buffer.
// A function that names its own extern array while the kernel replicates
// them is refused, naming both arrays.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -keep-going -factor 2 %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck %s --check-prefix=REFUSE < %t.err
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -keep-going -factor 4 -layout interleaved %t.in.cu -o %t.ilv.cu 2> /dev/null
// RUN: FileCheck %s --check-prefix=ILV < %t.ilv.cu
// RUN: %nvcc-check %t.ilv.cu
// RUN: %tfuse -keep-going -factor 2,2 -dim x,y %t.in.cu -o %t.xy.cu 2> /dev/null
// RUN: FileCheck %s --check-prefix=XY < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu
// RUN: %tfuse -keep-going -factor 2 -mode thread %t.in.cu -o %t.thread.cu 2> /dev/null
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -keep-going -factor auto -tune-space "block.x:2 thread.x:2" %t.in.cu -o %t.auto.cu 2> /dev/null
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.cu
// RUN: %nvcc-check %t.auto.cu

// CHECK-LABEL: __global__ void two_names(unsigned int __tf_grid_x, unsigned int __tf_dsmem, float *out) {
// CHECK:      extern __shared__ float a[];
// CHECK-NEXT: decltype(&a[0]) const a_0 = (decltype(&a[0]))((char *)a + 0 * (size_t)__tf_dsmem);
// CHECK-NEXT: decltype(&a[0]) const a_1 = (decltype(&a[0]))((char *)a + 1 * (size_t)__tf_dsmem);
// CHECK-NEXT: extern __shared__ int b[];
// CHECK-NEXT: decltype(&b[0]) const b_0 = (decltype(&b[0]))((char *)b + 0 * (size_t)__tf_dsmem);
// CHECK-NEXT: decltype(&b[0]) const b_1 = (decltype(&b[0]))((char *)b + 1 * (size_t)__tf_dsmem);
// CHECK:      a_1[threadIdx.x] = __tf_ok_1 ? ((blockIdx.x * 2 + 1) + blockIdx.y) : 0;
// CHECK:      out[(blockIdx.x * 2) * blockDim.x + threadIdx.x] = (float)b_0[blockDim.x - 1 - threadIdx.x];
// CHECK-NEXT: if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x] = (float)b_1[blockDim.x - 1 - threadIdx.x];
// CHECK-LABEL: __global__ void view_and_own(unsigned int __tf_grid_x, unsigned int __tf_dsmem, float *out) {
// CHECK:      float *f_1 = (decltype(f_1))((char *)static_cast<decltype(f_1)>(dyn_base()) + 1 * (size_t)__tf_dsmem);
// CHECK:      decltype(&own[0]) const own_1 = (decltype(&own[0]))((char *)own + 1 * (size_t)__tf_dsmem);
// CHECK:      if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x] = f_1[blockDim.x - 1 - threadIdx.x];
// CHECK-LABEL: __global__ void helper_reads(float *out) {
// CHECK-NEXT: extern __shared__ float s[];

// REFUSE: .in.cu:{{[0-9]+}}:48: warning: kernel 'helper_reads' left unchanged: 'get' uses extern __shared__ 'h', which lies at the address of 's' ({{.*}}.in.cu:{{[0-9]+}}): CUDA places every extern __shared__ array of a kernel and its functions at the start of the block's dynamic shared memory; block mode replicates it per logical block, and tfuse renames only the kernel's own uses (pass the array as an argument)

// ILV-LABEL: __global__ void two_names(
// ILV:       decltype(&b[0]) const b_3 = (decltype(&b[0]))((char *)b + 3 * (size_t)__tf_dsmem);
// ILV:       if (__tf_ok_3) out[(blockIdx.x * 4 + 3) * blockDim.x + threadIdx.x] = (float)b_3[blockDim.x - 1 - threadIdx.x];

// XY-LABEL: __global__ void two_names(
// XY:       decltype(&b[0]) const b_x1y1 = (decltype(&b[0]))((char *)b + 3 * (size_t)__tf_dsmem);
// XY:       = (float)b_x1y1[blockDim.x - 1 - threadIdx.x];

// -factor auto's block variant replicates both names as well.
// AUTO-LABEL: __global__ void two_names__tf_bx2(
// AUTO:       decltype(&b[0]) const b_1 = (decltype(&b[0]))((char *)b + 1 * (size_t)__tf_dsmem);
// AUTO:       (float)b_1[blockDim.x - 1 - threadIdx.x];

// THREAD-LABEL: __global__ void two_names(float *out) {
// THREAD-NOT:   __tf_dsmem
// THREAD:       extern __shared__ int b[];
// THREAD:       = (float)b[(blockDim.x * 2) - 1 - (threadIdx.x + 1 * blockDim.x)];

#pragma tfuse coarsen
__global__ void two_names(float *out) {
  extern __shared__ float a[];
  extern __shared__ int b[];
  a[threadIdx.x] = blockIdx.x + blockIdx.y;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (float)b[blockDim.x - 1 - threadIdx.x];
}

__device__ float *dyn_base() {
  extern __shared__ float dbase[];
  return dbase;
}

#pragma tfuse coarsen
__global__ void view_and_own(float *out) {
  float *f = dyn_base();
  extern __shared__ float own[];
  own[threadIdx.x] = 2.0f * blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = f[blockDim.x - 1 - threadIdx.x];
}

__device__ float get(int i) {
  extern __shared__ float h[];
  return h[i];
}

#pragma tfuse coarsen
__global__ void helper_reads(float *out) {
  extern __shared__ float s[];
  s[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = get(blockDim.x - 1 - threadIdx.x);
}

int main() {
  float *o = 0;
  two_names<<<dim3(8, 2), 64, 64 * sizeof(float)>>>(o);
  view_and_own<<<8, 64, 64 * sizeof(float)>>>(o);
  helper_reads<<<8, 64, 64 * sizeof(float)>>>(o);
}
