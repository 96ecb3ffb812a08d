// A construction of a class template's specialization that depends on a
// template parameter (`S<T>()`) may run any constructor, conversion or
// destructor tfuse cannot tell apart, so its reads are theirs all together
// (effects.c implicit_reads), and with `SharedMemory<T>` in the unit that
// includes the dynamic shared memory, which block mode moves per copy:
// refused.  A class of cooperative groups' (`cg::plus<T>()`, the operator
// of cg::reduce in cuda-samples' cg_reduce) is CUDA's: read as its
// functions are (the place in the block and warp), and the kernel is
// coarsened, directly and through a template helper.  Both calls compute a
// warp value, taken out of the copy's guard (the operator's construction
// is no call that loads; the helper's `Group &` receives a tile of one
// warp its body does not change).  A class of the program's own stays
// refused.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.cu
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %nvcc-check %t.cu

// ERR: warning: kernel 'by_own_class' left unchanged: 'operator T *' declares __shared__ '__smem', which block mode must replicate per logical block, and the kernel reaches it through code that runs without a call in the text
// ERR-NOT: left unchanged

// CHECK-LABEL: __global__ void by_functor(
// CHECK:      T *sdata_1 = (decltype(sdata_1))((char *)static_cast<decltype(sdata_1)>(SharedMemory<T>()) + 1 * (size_t)__tf_dsmem);
// CHECK:      v_0 = cg::reduce(tile, v_0, cg::plus<T>());
// CHECK-NEXT: const auto __tf_w1 = cg::reduce(tile, v_1, cg::plus<T>()); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: if (__tf_ok_1) v_1 = __tf_w1;
// CHECK-LABEL: __global__ void by_helper(
// CHECK:      v_0 = reduce_n(v_0, tile);
// CHECK-NEXT: const auto __tf_w1 = reduce_n(((__tf_ok_1) ? (v_1) : (v_0)), tile); /* tfuse: warp-synchronous, every lane */
// CHECK-NEXT: if (__tf_ok_1) v_1 = __tf_w1;

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <class T> struct Add {
  __device__ T operator()(T a, T b) const { return a + b; }
};

template <class F, class T> __device__ T combine(F, T a, T b) { return a + b; }

template <typename T, typename Group> __device__ T reduce_n(T in, Group &threads) {
  return cg::reduce(threads, in, cg::plus<T>());
}

template <class T> __global__ void by_functor(T *in, T *out) {
  T *sdata = SharedMemory<T>();
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  sdata[threadIdx.x] = v;
  cta.sync();
  v = cg::reduce(tile, v, cg::plus<T>());
  if (threadIdx.x == 0)
    out[blockIdx.x] = v + sdata[32];
}

template <class T> __global__ void by_helper(T *in, T *out) {
  T *sdata = SharedMemory<T>();
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  sdata[threadIdx.x] = v;
  cta.sync();
  v = reduce_n(v, tile);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v + sdata[32];
}

template <class T> __global__ void by_own_class(T *in, T *out) {
  T *sdata = SharedMemory<T>();
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  sdata[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = combine(Add<T>(), v, sdata[32]);
}

template <class T> void run(T *in, T *out, int n) {
  by_functor<T><<<n / 64, 64, 64 * sizeof(T)>>>(in, out);
  by_helper<T><<<n / 64, 64, 64 * sizeof(T)>>>(in, out);
  by_own_class<T><<<n / 64, 64, 64 * sizeof(T)>>>(in, out);
}
template void run<int>(int *, int *, int);
