// Thread mode along y: blockDim.y becomes (blockDim.y * K), the logical
// block extent, while blockDim.x and gridDim keep their meaning; threadIdx.y
// becomes (threadIdx.y + r * blockDim.y) with the stride mapping and
// (threadIdx.y * K + r) with the consecutive one.  No parameter is added
// and no copy needs a guard (every logical thread exists).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -external-launches %t.in.cu -o %t.stride.cu
// RUN: FileCheck %s --check-prefixes=COMMON,STRIDE < %t.stride.cu
// RUN: %nvcc-check %t.stride.cu
// RUN: %tfuse -external-launches -mapping consecutive %t.in.cu -o %t.consec.cu
// RUN: FileCheck %s --check-prefixes=COMMON,CONSEC < %t.consec.cu
// RUN: %nvcc-check %t.consec.cu

// STRIDE-LABEL: /* tfuse: coarsened by 2, thread mode along y, stride */
// CONSEC-LABEL: /* tfuse: coarsened by 2, thread mode along y, consecutive */
// COMMON-NEXT:  __global__ void k(float *out, int w) {
// COMMON-NEXT:  /* tfuse: this thread runs logical threads
// STRIDE-NEXT: int y_0 = blockIdx.y * (blockDim.y * 2) + (threadIdx.y);
// STRIDE-NEXT: int y_1 = blockIdx.y * (blockDim.y * 2) + (threadIdx.y + 1 * blockDim.y);
// CONSEC-NEXT: int y_0 = blockIdx.y * (blockDim.y * 2) + (threadIdx.y * 2);
// CONSEC-NEXT: int y_1 = blockIdx.y * (blockDim.y * 2) + (threadIdx.y * 2 + 1);
// COMMON-NEXT:  int rows = gridDim.y * (blockDim.y * 2);
// COMMON-NEXT:  out[y_0 * w + threadIdx.x] = rows + blockDim.x;
// COMMON-NEXT:  out[y_1 * w + threadIdx.x] = rows + blockDim.x;
// COMMON-NEXT:  }
// COMMON-NOT:   __tf_ok

#pragma tfuse coarsen factor(2) mode(thread) dim(y)
__global__ void k(float *out, int w) {
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int rows = gridDim.y * blockDim.y;
  out[y * w + threadIdx.x] = rows + blockDim.x;
}
