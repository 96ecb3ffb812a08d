// A pointer or array whose type is named through a typedef or `auto` is
// what its type is: a store through `FP q = sh;` (typedef float *FP) or
// `auto q = sh;` writes sh, and a store to an element of `F64 t` (typedef
// float F64[64]) writes t.  Block mode replicates sh and t per logical
// block and points each copy's q at its own sh (these stores were once
// taken to write nothing: one array for all the copies).
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: __global__ void td_ptr(
// CHECK:      __shared__ float sh_1[64];
// CHECK:      FP q_1 = sh_1;
// CHECK:      if (__tf_ok_1) q_1[threadIdx.x] = (blockIdx.x * 2 + 1);
// CHECK:      if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x] = sh_1[63 - threadIdx.x];
// CHECK-LABEL: __global__ void auto_ptr(
// CHECK:      auto q_1 = sh_1;
// CHECK:      if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x] = sh_1[63 - threadIdx.x];
// CHECK-LABEL: __global__ void td_arr(
// CHECK:      __shared__ F64 t_1;
// CHECK:      t_1[threadIdx.x] = __tf_ok_1 ? ((blockIdx.x * 2 + 1)) : 0;
// CHECK:      if (__tf_ok_1) out[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x] = t_1[63 - threadIdx.x];

typedef float *FP;
typedef float F64[64];
#pragma tfuse coarsen
__global__ void td_ptr(float *out) {
  __shared__ float sh[64];
  FP q = sh;
  q[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = sh[63 - threadIdx.x];
}
#pragma tfuse coarsen
__global__ void auto_ptr(float *out) {
  __shared__ float sh[64];
  auto q = sh;
  q[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = sh[63 - threadIdx.x];
}
#pragma tfuse coarsen
__global__ void td_arr(float *out) {
  __shared__ F64 t;
  t[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t[63 - threadIdx.x];
}
int main() { float *o = 0; td_ptr<<<8, 64>>>(o); auto_ptr<<<8,64>>>(o); td_arr<<<8,64>>>(o); }
