// Inline assembly in a helper the kernel reaches: refused where its
// template names a special register the coarsening changes (block mode:
// %ctaid, %nctaid; thread mode: %tid, %ntid, %laneid, %warpid), where it
// is not literal text (a macro builds it: it may name any register), or
// where it holds a barrier; the error names the helper and the register.
// Registers the mode keeps are accepted (see emit/inline-asm-helpers.cu).
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 -mode block %s -o %t.out 2>&1 | FileCheck --check-prefix=BLOCK %s
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck --check-prefix=THREAD %s
// RUN: test ! -e %t.out

__device__ unsigned block_id() { unsigned r; asm("mov.u32 %0, %%ctaid.x;" : "=r"(r)); return r; }
__device__ unsigned nblocks() { unsigned r; asm("mov.u32 %0, %%nctaid.x;" : "=r"(r)); return r; }
__device__ unsigned tid_x() { unsigned r; asm("mov.u32 %0, %%tid.x;" : "=r"(r)); return r; }
__device__ unsigned ntid_x() { unsigned r; asm("mov.u32 %0, %%ntid.x;" : "=r"(r)); return r; }
__device__ unsigned lane_id() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ unsigned warp_id() { unsigned r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
#define SREG(x) "mov.u32 %0, %%" #x ";"
__device__ unsigned tid_m() { unsigned r; asm(SREG(tid.x) : "=r"(r)); return r; }
__device__ void wait_all() { asm volatile("bar.sync 0;"); }

#pragma tfuse coarsen
__global__ void k(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + (int)(tid_m());
  // BLOCK: inline-asm-helpers.cu:[[@LINE-1]]:28: error: 'tid_m' holds inline assembly whose template is not literal text (a macro?): it may read any special register
  // THREAD: inline-asm-helpers.cu:[[@LINE-2]]:28: error: 'tid_m' holds inline assembly whose template is not literal text (a macro?)
  out[i] += (int)block_id();
  // BLOCK: inline-asm-helpers.cu:[[@LINE-1]]:18: error: 'block_id' reads %ctaid.x through inline assembly (blockIdx.x), which coarsening changes; tfuse does not rewrite assembly per copy; pass the value as an argument
  out[i] += (int)nblocks();
  // BLOCK: inline-asm-helpers.cu:[[@LINE-1]]:18: error: 'nblocks' reads %nctaid.x through inline assembly (gridDim.x), which coarsening changes
  out[i] += (int)(tid_x() + ntid_x());
  // THREAD: inline-asm-helpers.cu:[[@LINE-1]]:19: error: 'tid_x' reads %tid.x through inline assembly (threadIdx.x), which coarsening changes
  // THREAD: inline-asm-helpers.cu:[[@LINE-2]]:29: error: 'ntid_x' reads %ntid.x through inline assembly (blockDim.x), which coarsening changes
  out[i] += (int)(lane_id() + warp_id());
  // THREAD: inline-asm-helpers.cu:[[@LINE-1]]:19: error: 'lane_id' reads %laneid through inline assembly (the lane id), which coarsening changes
  // THREAD: inline-asm-helpers.cu:[[@LINE-2]]:31: error: 'warp_id' reads %warpid through inline assembly (the warp id), which coarsening changes
  wait_all();
  // BLOCK: inline-asm-helpers.cu:[[@LINE-1]]:3: error: 'wait_all' holds a barrier in inline assembly ('bar'), which tfuse cannot place for the merged blocks
  // THREAD: inline-asm-helpers.cu:[[@LINE-2]]:3: error: 'wait_all' holds a barrier in inline assembly ('bar'), which tfuse cannot place for the merged threads
}

int main() {
  int *a = 0, *b = 0;
  k<<<13, 96>>>(a, 100, b);
}
