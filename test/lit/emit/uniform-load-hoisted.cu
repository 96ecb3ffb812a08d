// A uniform load inside a statement emitted per copy that stores to
// memory is loaded once, before copy 0, into a temporary (Volkov's `Aix`):
// otherwise nvcc reloads it after every copy's store.  One temporary per
// distinct text; the target of the store itself, loads under `?:`, `&&`
// and `||`, volatile arrays, statements with other side effects, and
// places where no copy is known to run stay as they were.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// RUN: FileCheck --check-prefix=BLOCK %s < %t.cu

// The Gauss-Jordan update, in a predicated region: loaded once inside it,
// so only when some copy runs the statement.  Both uses of A[i][x] share
// the temporary; A[y][i] differs per copy and is loaded per copy.
// CHECK-LABEL: __global__ void gj(
// CHECK:      const float [[IN:__tf_u[0-9]+]] = out[x]; /* tfuse: the same for every copy, loaded once */
// CHECK-NEXT: A[y_0][x] = [[IN]];
// CHECK-NEXT: A[y_1][x] = [[IN]];
// CHECK:      if (__tf_p1_0 || __tf_p1_1) {
// CHECK-NEXT:   const float [[AIX:__tf_u[0-9]+]] = A[i][x]; /* tfuse: the same for every copy, loaded once */
// CHECK-NEXT:   if (__tf_p1_0) A[y_0][x] -= A[y_0][i] * [[AIX]] + [[AIX]];
// CHECK-NEXT:   if (__tf_p1_1) A[y_1][x] -= A[y_1][i] * [[AIX]] + [[AIX]];
// An index of the target is hoisted; the target is not.
// CHECK:      const int [[P:__tf_u[0-9]+]] = perm[i]; /* tfuse:
// CHECK-NEXT: A[y_0]{{\[}}[[P]]{{\]}} = A[y_0][x];
// CHECK-NEXT: A[y_1]{{\[}}[[P]]{{\]}} = A[y_1][x];
// Not under a conditional operator or a logical one, not in a statement
// with another effect.
// CHECK:      A[y_0][x] = y_0 > 2 ? A[i][x] : 0.0f;
// CHECK-NEXT: A[y_1][x] = y_1 > 2 ? A[i][x] : 0.0f;
// CHECK-NEXT: A[y_0][x] = (y_0 > 2 && A[i][x] > 0) ? 1.0f : 2.0f;
// CHECK-NEXT: A[y_1][x] = (y_1 > 2 && A[i][x] > 0) ? 1.0f : 2.0f;
// CHECK-NEXT: A[y_0][x] = A[i][x] + (float)(n_0++);
// After a varying return no copy is known to run: not hoisted.
// CHECK:      if (__tf_live_0) A[y_0][x] = A[i][x];
// CHECK-NEXT: if (__tf_live_1) A[y_1][x] = A[i][x];
// CHECK-NEXT: if (__tf_live_0) out[y_0 * 32 + x] = A[y_0][x] + n_0;
// CHECK-NEXT: if (__tf_live_1) out[y_1 * 32 + x] = A[y_1][x] + n_1;
// CHECK-NEXT: }
#pragma tfuse coarsen mode(thread) dim(y)
__global__ void gj(float *out, const int *perm, int i, int n) {
  __shared__ float A[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  A[y][x] = out[x];
  __syncthreads();
  if (y != i)
    A[y][x] -= A[y][i] * A[i][x] + A[i][x];
  __syncthreads();
  A[y][perm[i]] = A[y][x];
  __syncthreads();
  A[y][x] = y > 2 ? A[i][x] : 0.0f;
  A[y][x] = (y > 2 && A[i][x] > 0) ? 1.0f : 2.0f;
  A[y][x] = A[i][x] + (float)(n++);
  __syncthreads();
  if (y == n)
    return;
  A[y][x] = A[i][x];
  out[y * 32 + x] = A[y][x] + n;
}

// Block mode: a load through a pointer at a uniform index, beside the
// copies' stores to global memory; not through a pointer to volatile, a
// cast, or from a volatile shared array.
// BLOCK-LABEL: __global__ void blk(
// BLOCK:      const float [[W:__tf_u[0-9]+]] = w[j]; /* tfuse: the same for every copy, loaded once */
// BLOCK-NEXT: out[i_0] = in[i_0] * [[W]];
// BLOCK-NEXT: if (__tf_ok_1) out[i_1] = in[i_1] * [[W]];
// BLOCK-NEXT: out[i_0] = vw[j];
// BLOCK-NEXT: if (__tf_ok_1) out[i_1] = vw[j];
// BLOCK-NEXT: out[i_0] = ((volatile float *)w)[j];
// BLOCK-NEXT: if (__tf_ok_1) out[i_1] = ((volatile float *)w)[j];
// BLOCK-NEXT: out[i_0] = V[j];
// BLOCK-NEXT: if (__tf_ok_1) out[i_1] = V[j];
// BLOCK-NEXT: }
#pragma tfuse coarsen
__global__ void blk(float *out, const float *in, const float *w, volatile float *vw, int j) {
  __shared__ volatile float V[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    V[j] = w[0];
  __syncthreads();
  out[i] = in[i] * w[j];
  out[i] = vw[j];
  out[i] = ((volatile float *)w)[j];
  out[i] = V[j];
}

void host(float *out, const int *perm, const float *in, int i, int n) {
  gj<<<1, dim3(32, 8)>>>(out, perm, i, n);
  blk<<<4, 32>>>(out, in, in + 128, out + 256, i);
}
