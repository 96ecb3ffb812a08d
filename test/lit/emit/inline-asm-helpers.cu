// Inline assembly in a helper that reads only special registers the mode
// keeps is accepted and called as written: in block mode %tid, %ntid,
// %laneid, %warpid, %smid and %ctaid along another dimension; in thread
// mode %ctaid and %nctaid.  Registers a template declares itself (`.reg
// .u32 %t`) are not special.  The call is per copy (assembly is an effect).
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 -mode block -kernel kb %s -o %t.block.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -kernel kt %s -o %t.thread.cu
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu

__device__ unsigned tid_x() { unsigned r; asm("mov.u32 %0, %%tid.x;" : "=r"(r)); return r; }
__device__ unsigned lane_id() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ unsigned sm_id() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ unsigned block_y() { unsigned r; asm("mov.u32 %0, %%ctaid.y;" : "=r"(r)); return r; }
__device__ unsigned block_x() { unsigned r; asm("mov.u32 %0, %%ctaid.x;" : "=r"(r)); return r; }
__device__ unsigned addone(unsigned v) {
  unsigned r;
  asm("{\n\t.reg .u32 %%t;\n\tadd.u32 %%t, %1, 1;\n\tmov.u32 %0, %%t;\n}" : "=r"(r) : "r"(v));
  return r;
}

__global__ void kb(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + (int)(tid_x() + lane_id() + block_y() + addone(3)) + (sm_id() > 1000u);
}

__global__ void kt(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + (int)block_x();
}

int main() {
  int *a = 0, *b = 0;
  kb<<<13, 96>>>(a, 100, b);
  kt<<<13, 96>>>(a, 100, b);
}

// BLOCK-LABEL: __global__ void kb(
// BLOCK:       if (__tf_p1_1) out[i_1] = in[i_1] + (int)(tid_x() + lane_id() + block_y() + addone(3)) + (sm_id() > 1000u);
// THREAD-LABEL: __global__ void kt(
// THREAD:      if (__tf_p1_1) out[i_1] = in[i_1] + (int)block_x();
