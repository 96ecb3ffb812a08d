// A loop that waits for another thread's write (a spin-wait on a volatile
// or atomic read) is refused: merged into one physical thread, a copy could
// wait for a copy that runs after it, and hang.
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(volatile int *flag, int *out, int *ready) {
  if (blockIdx.x == 1 && threadIdx.x == 0)
    *flag = 1;
// CHECK: spin-wait.cu:[[@LINE+1]]:3: error: a loop that waits on memory other threads write (a spin-wait)
  while (*flag == 0) {
  }
// CHECK: spin-wait.cu:[[@LINE+1]]:3: error: a loop that waits on memory other threads write (a spin-wait)
  for (;;) {
    if (atomicAdd(ready, 0) > 0)
      break;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

void run(volatile int *f, int *o, int *r) { k<<<4, 64>>>(f, o, r); }
