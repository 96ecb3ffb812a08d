// The reads model: a call whose callee's body reads only its parameters is
// still varying when a default argument it leaves out reads the seed (it is
// evaluated at the call), or when it runs code that reads the seed with no
// call in the text; a default that reads only what the mode keeps leaves it
// uniform.  Block mode: blockIdx.x is the seed, threadIdx.x is not.
// RUN: %tfuse -factor 2 -dump-after=uniform %s | FileCheck --check-prefix=BLOCK %s
// RUN: %tfuse -factor 2 -mode thread -dump-after=uniform %s | FileCheck --check-prefix=THREAD %s

// BLOCK-LABEL: FUNC 'k'
// BLOCK: VAR 'a' <{{[0-9:]+}}> varying [varying]
// BLOCK: VAR 'b' <{{[0-9:]+}}> [uniform]
// BLOCK: VAR 'c' <{{[0-9:]+}}> varying [varying]
// BLOCK: VAR 'd' <{{[0-9:]+}}> [uniform]
// THREAD-LABEL: FUNC 'k'
// THREAD: VAR 'a' <{{[0-9:]+}}> varying [varying]
// THREAD: VAR 'b' <{{[0-9:]+}}> varying [varying]
// THREAD: VAR 'c' <{{[0-9:]+}}> [uniform]
// THREAD: VAR 'd' <{{[0-9:]+}}> [uniform]

__device__ int gid(unsigned b = blockIdx.x, unsigned d = blockDim.x, unsigned t = threadIdx.x) { return b * d + t; }
__device__ int lane(int t = threadIdx.x) { return t & 31; }
__device__ int blk(int s, unsigned b = blockIdx.x) { return s + (int)b; }
__device__ int twice(int v) { return v * 2; }

#pragma tfuse coarsen
__global__ void k(int *out) {
  int a = gid();
  int b = lane();
  int c = blk(3);
  int d = twice(4) + blk(1, 7);
  out[a] = b + c + d;
}

int main() {
  int *o = 0;
  k<<<13, 96>>>(o);
}
