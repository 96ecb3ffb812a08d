// Registers of a promoted shared array get the array's whole element type
// per name: an element type that is not a plain specifier (a pointer, a
// pointer to an array, a pointer to const) is named through the prelude's
// ::tfuse_rt::plain, so both registers are pointers (once `float * s_reg_0,
// s_reg_1;`, whose second name was a float).  A typedef of an array is
// promoted with its element type (float); a typedef of a pointer keeps
// its name; a 2-D array one register per copy.  Block mode and thread mode.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: %tfuse -factor 2 -mode thread %t.in.cu -o %t.thread.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

// CHECK-LABEL: __global__ void ptrs(
// CHECK:      typename ::tfuse_rt::plain<float *>::type s_reg_0, s_reg_1; /* tfuse: the copies' own elements of s[t], kept in registers */
// CHECK:      if (__tf_ok_1) s_1[t] = s_reg_1 = in[i_1];
// CHECK:      if (__tf_ok_1) out[i_1] = *s_reg_1 + *s_1[t ^ 1];
// CHECK-LABEL: __global__ void ptr_to_array(
// CHECK:      typename ::tfuse_rt::plain<float (*)[4]>::type pa_reg_0, pa_reg_1;
// CHECK:      if (__tf_ok_1) out[i_1] = (*pa_reg_1)[1] + (*pa_1[t ^ 1])[2];
// CHECK-LABEL: __global__ void aliases(
// CHECK:      __shared__ F64 v_1;
// CHECK-NEXT: float v_reg_0, v_reg_1;
// CHECK:      IP ip_reg_0, ip_reg_1;
// CHECK:      typename ::tfuse_rt::plain<const int *>::type cp_reg_0, cp_reg_1;
// CHECK:      if (__tf_ok_1) out[i_1] = v_reg_1 * v_1[t ^ 1] + *ip_reg_1 + *cp_reg_1 + *ip_1[t ^ 1];
// CHECK-LABEL: __global__ void two_d(
// CHECK:      float m_reg_0, m_reg_1;

// THREAD-LABEL: __global__ void ptrs(
// THREAD:      typename ::tfuse_rt::plain<float *>::type s_reg_0, s_reg_1;
// THREAD:      s[t_1] = s_reg_1 = in[i_1];
// THREAD:      out[i_1] = *s_reg_1 + *s[t_1 ^ 1];
// THREAD-LABEL: __global__ void ptr_to_array(
// THREAD:      typename ::tfuse_rt::plain<float (*)[4]>::type pa_reg_0, pa_reg_1;
// THREAD-LABEL: __global__ void aliases(
// THREAD:      float v_reg_0, v_reg_1;

typedef float F64[64];
typedef int *IP;
#pragma tfuse coarsen
__global__ void ptrs(float **in, float *out) {
  __shared__ float *s[64];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  s[t] = in[i];
  __syncthreads();
  out[i] = *s[t] + *s[t ^ 1];
}
#pragma tfuse coarsen
__global__ void ptr_to_array(float (**in)[4], float *out) {
  __shared__ float (*pa[64])[4];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  pa[t] = in[i];
  __syncthreads();
  out[i] = (*pa[t])[1] + (*pa[t ^ 1])[2];
}
#pragma tfuse coarsen
__global__ void aliases(const float *in, int **pin, float *out) {
  __shared__ F64 v;
  __shared__ IP ip[64];
  __shared__ const int *cp[64];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * 64 + t;
  v[t] = in[i];
  ip[t] = pin[i];
  cp[t] = pin[i] + 1;
  __syncthreads();
  out[i] = v[t] * v[t ^ 1] + *ip[t] + *cp[t] + *ip[t ^ 1];
}
#pragma tfuse coarsen
__global__ void two_d(const float *in, float *out) {
  __shared__ float m[8][8];
  unsigned x = threadIdx.x, y = threadIdx.y;
  int i = (blockIdx.x * 8 + y) * 8 + x;
  m[y][x] = in[i];
  __syncthreads();
  out[i] = m[y][x] + m[x][y];
}
void host(float **in, float (**pa)[4], const float *f, int **pin, float *out, int n) {
  ptrs<<<n / 64, 64>>>(in, out);
  ptr_to_array<<<n / 64, 64>>>(pa, out);
  aliases<<<n / 64, 64>>>(f, pin, out);
  two_d<<<n / 64, dim3(8, 8)>>>(f, out);
}
