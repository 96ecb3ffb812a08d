// Block mode: a warp-synchronous call of a copy whose guard says only that
// its logical block is live (__tf_ok_r: the same in every lane) is
// evaluated unguarded by every lane, into a temporary, a dead copy taking
// copy 0's arguments where they load; the statement, still guarded, reads the temporary.
// (nvcc 13's ptxas miscompiled the guarded form at K = 8.)  A call under
// `?:` or under a predicate that differs between lanes stays guarded, as
// the original's lanes would have run it; __syncwarp() runs unguarded.  A
// helper that only computes with warp calls (cuda-samples' warpReduceSum)
// is such a call too.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 8 %t.in.cu -o %t.block.cu
// RUN: FileCheck %s < %t.block.cu
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2,2 -dim x,y %t.in.cu -o %t.xy.cu
// RUN: FileCheck --check-prefix=XY %s < %t.xy.cu
// RUN: %nvcc-check %t.xy.cu

template <class T> __device__ T warpReduceSum(unsigned int mask, T mySum) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    mySum += __shfl_down_sync(mask, mySum, offset);
  return mySum;
}

#pragma tfuse coarsen
template <class T>
__global__ void kt(const T *in, T *out) {
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v = warpReduceSum<T>(0xffffffffu, v);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

#pragma tfuse coarsen
__global__ void k(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = __reduce_add_sync(0xffffffffu, v);
  unsigned mx = __reduce_max_sync(0xffffffffu, (unsigned)v), o = __reduce_or_sync(0xffffffffu, (unsigned)v);
  unsigned m = __match_any_sync(0xffffffffu, v & 3);
  int x = v;
  for (int d = 16; d > 0; d >>= 1)
    x += __shfl_down_sync(0xffffffffu, x, d);
  x = x + __shfl_xor_sync(0xffffffffu, in[i % n], 1);
  __syncwarp();
  int c = v > 3 ? __shfl_sync(0xffffffffu, v, 0) : 0;
  if (i < n)
    out[i] = s + (int)(mx + o + m) + x + c + __shfl_up_sync(0xffffffffu, v, 1);
}

int main() {
  int *a = 0, *b = 0;
  k<<<13, 96>>>(a, 100, b);
  kt<int><<<13, 96>>>(a, b);
}

// CHECK-LABEL: __global__ void kt(
// CHECK:       const auto [[WT:__tf_w[0-9]+]] = warpReduceSum<T>(0xffffffffu, ((__tf_ok_7) ? (v_7) : (v_0))); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT:  if (__tf_ok_7) v_7 = [[WT]];
// CHECK-LABEL: __global__ void k(
// CHECK:       int s_0 = __reduce_add_sync(0xffffffffu, v_0);
// CHECK-NEXT:  const auto [[W1:__tf_w[0-9]+]] = __reduce_add_sync(0xffffffffu, v_1); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT:  int s_1 = TFUSE_GUARD(__tf_ok_1, [[W1]]);
// CHECK:       const auto [[W2:__tf_w[0-9]+]] = __reduce_max_sync(0xffffffffu, (unsigned)v_7);
// CHECK-NEXT:  const auto [[W3:__tf_w[0-9]+]] = __reduce_or_sync(0xffffffffu, (unsigned)v_7);
// CHECK-NEXT:  unsigned mx_7 = TFUSE_GUARD(__tf_ok_7, [[W2]]), o_7 = TFUSE_GUARD(__tf_ok_7, [[W3]]);
// CHECK:       const auto [[W4:__tf_w[0-9]+]] = __match_any_sync(0xffffffffu, v_7 & 3);
// CHECK-NEXT:  unsigned m_7 = TFUSE_GUARD(__tf_ok_7, [[W4]]);
// CHECK:       const auto [[W5:__tf_w[0-9]+]] = __shfl_down_sync(0xffffffffu, x_1, d);
// CHECK-NEXT:  if (__tf_ok_1) x_1 += [[W5]];
// CHECK:       const auto [[W6:__tf_w[0-9]+]] = __shfl_xor_sync(0xffffffffu, ((__tf_ok_1) ? (in[i_1 % n]) : (in[i_0 % n])), 1);
// CHECK-NEXT:  if (__tf_ok_1) x_1 = x_1 + [[W6]];
// CHECK:       __syncwarp();
// CHECK-NOT:   if (__tf_ok_{{[0-9]}}) __syncwarp();
// CHECK:       int c_1 = TFUSE_GUARD(__tf_ok_1, v_1 > 3 ? __shfl_sync(0xffffffffu, v_1, 0) : 0);
// CHECK:       if (__tf_p1_1) out[i_1] = s_1 + (int)(mx_1 + o_1 + m_1) + x_1 + c_1 + __shfl_up_sync(0xffffffffu, v_1, 1);

// XY-LABEL: __global__ void k(
// XY:       int s_x0y1 = TFUSE_GUARD(__tf_ok_y1, {{__tf_w[0-9]+}});
// XY-NEXT:  const auto [[W:__tf_w[0-9]+]] = __reduce_add_sync(0xffffffffu, v_x1);
// XY-NEXT:  int s_x1y1 = TFUSE_GUARD(__tf_ok_x1 && __tf_ok_y1, [[W]]);
