// -factor auto on a kernel none of whose candidates tfuse can coarsen
// (inline assembly): the kernel is not coarsened, and said so at the first
// candidate's reason; under -keep-going it is left unchanged (and listed
// so by -report-json), the other kernel of the file tuned as usual, its
// -report-json entry listing the construct rows its candidates reach.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse -factor auto -candidates 2,4 %t.in.cu -o %t.out.cu 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: test ! -e %t.out.cu
// RUN: %tfuse -factor auto -candidates 2,4 -keep-going %t.in.cu -o %t.cu -report-json %t.json 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: FileCheck %s --check-prefix=OUT < %t.cu
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %nvcc-check %t.cu

// ERR: in.cu:[[@LINE+12]]:36: error: no candidate of 'opaque' can be coarsened with -factor auto (the first, block.x:2: inline assembly is not supported in a coarsened kernel: tfuse cannot see what it reads)
// KEPT: in.cu:[[@LINE+11]]:36: warning: kernel 'opaque' left unchanged: no candidate of 'opaque' can be coarsened with -factor auto
// KEPT: tfuse: 2 kernels: 1 coarsened, 1 left unchanged:
// OUT: __global__ void scale__tf_bx2(
// OUT: __global__ void opaque(float *a) { asm volatile("" ::: "memory"); a[threadIdx.x] = 0; }
// JSON: "kernel": "opaque", "decision": "unchanged", "factor": "auto", "reason": "no candidate of 'opaque' can be coarsened with -factor auto
// The census rows its candidates reach, as for a fixed factor:
// JSON: "kernel": "scale", "decision": "coarsened", "factor": "auto", "reason": "", "constructs": ["block", "compound assignment", "subscript",

#pragma tfuse coarsen
__global__ void scale(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] *= 2; }
#pragma tfuse coarsen
__global__ void opaque(float *a) { asm volatile("" ::: "memory"); a[threadIdx.x] = 0; }
void run(float *a) {
  scale<<<8, 64>>>(a);
  opaque<<<1, 64>>>(a);
}
