// Command-line options override the pragma's clauses for every kernel:
// -factor 3 -mode block -dim x turns the pragma's factor(4) mode(thread)
// dim(y) into block mode by 3 along x, while clauses the command line does
// not mention still apply (here: -mode alone keeps factor(4)).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 3 -mode block -dim x %t.in.cu -o %t.all.cu
// RUN: FileCheck %s --check-prefix=ALL < %t.all.cu
// RUN: %nvcc-check %t.all.cu
// RUN: %tfuse -mode block %t.in.cu -o %t.mode.cu
// RUN: FileCheck %s --check-prefix=MODE < %t.mode.cu
// RUN: %nvcc-check %t.mode.cu

// ALL:      /* tfuse: coarsened by 3, block mode along x */
// ALL-NEXT: __global__ void k(unsigned int __tf_grid_x, float *o, int w) {
// ALL:      o[((blockIdx.x * 3) * blockDim.x + threadIdx.x) * w + blockIdx.y * blockDim.y + threadIdx.y] = 1.0f;
// ALL-NEXT: if (__tf_ok_1) o[((blockIdx.x * 3 + 1) * blockDim.x + threadIdx.x) * w + blockIdx.y * blockDim.y + threadIdx.y] = 1.0f;
// ALL-NEXT: if (__tf_ok_2) o[((blockIdx.x * 3 + 2) * blockDim.x + threadIdx.x) * w + blockIdx.y * blockDim.y + threadIdx.y] = 1.0f;
// ALL-NEXT: }

// MODE:      /* tfuse: coarsened by 4, block mode along y */
// MODE-NEXT: __global__ void k(unsigned int __tf_grid_y, float *o, int w) {
// MODE:      o[(blockIdx.x * blockDim.x + threadIdx.x) * w + (blockIdx.y * 4) * blockDim.y + threadIdx.y] = 1.0f;
// MODE-NEXT: if (__tf_ok_1) o[(blockIdx.x * blockDim.x + threadIdx.x) * w + (blockIdx.y * 4 + 1) * blockDim.y + threadIdx.y] = 1.0f;
// MODE-NEXT: if (__tf_ok_2) o[(blockIdx.x * blockDim.x + threadIdx.x) * w + (blockIdx.y * 4 + 2) * blockDim.y + threadIdx.y] = 1.0f;
// MODE-NEXT: if (__tf_ok_3) o[(blockIdx.x * blockDim.x + threadIdx.x) * w + (blockIdx.y * 4 + 3) * blockDim.y + threadIdx.y] = 1.0f;
// MODE-NEXT: }

#pragma tfuse coarsen factor(4) mode(thread) dim(y)
__global__ void k(float *o, int w) {
  o[(blockIdx.x * blockDim.x + threadIdx.x) * w + blockIdx.y * blockDim.y + threadIdx.y] = 1.0f;
}
