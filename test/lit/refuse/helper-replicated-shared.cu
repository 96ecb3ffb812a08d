// Block mode: a file-scope __shared__ array that the kernel replicates per
// logical block cannot be used by a helper that names it directly (the
// helper would read the original, not the copy's replica); the error
// names the helper and the array.
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

__shared__ int tile[64];
__device__ int peek(int t) { return tile[(t + 1) % 64]; }

#pragma tfuse coarsen
__global__ void k(int *out, const int *in) {
  int i = blockIdx.x * 64 + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
// CHECK: helper-replicated-shared.cu:[[@LINE+1]]:12: error: 'peek' uses __shared__ 'tile', which this kernel replicates per logical block
  out[i] = peek(threadIdx.x);
}

void run(int *o, const int *in, int n) { k<<<n, 64>>>(o, in); }
