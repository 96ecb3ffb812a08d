// A call through a template parameter of function pointer type
// (`template <reduce_fn f> ... f(v)`) may call each function passed for it
// where its template is named with explicit arguments (`reduce<warp_sum>`,
// `reduce<&warp_max>`, through another template's own parameter): tfuse
// analyses each, and accepts the call when it accepts them all.  Refused: a
// default argument or a pointer variable passed for it, and a function that
// reads blockIdx (a clone per copy, which the parameter cannot name).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.block.cu 2> %t.block.err
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: FileCheck --check-prefix=REFUSED %s < %t.block.err
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.in.cu -o %t.thread.cu 2> %t.thread.err
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -dump-after=parse -kernel k %t.in.cu | FileCheck --check-prefix=DUMP %s

// DUMP: FUNC 'reduce'
// DUMP: CALL 'f'

// BLOCK-LABEL: __global__ void k(
// BLOCK:      float s_0 = reduce<warp_sum>(in[i_0]);
// BLOCK-NEXT: const auto __tf_w1 = reduce<warp_sum>(((__tf_ok_1) ? (in[i_1]) : (in[i_0]))); /* tfuse: warp-synchronous, every lane */
// BLOCK:      float m_0 = reduce<&warp_max>(in[i_0], -1.0f);

// THREAD-LABEL: __global__ void k(
// THREAD:      float s_0 = reduce<warp_sum>(in[i_0]);
// THREAD-NEXT: float s_1 = reduce<warp_sum>(in[i_1]);
// THREAD-LABEL: int main()
// THREAD: coarsen_block_warps

// REFUSED: :[[#@LINE+17]]:55: warning: kernel 'dflt' left unchanged: 'apply' calls 'f', a template parameter: tfuse knows the functions it stands for only when every naming of its template (one input, parameters all non-type) passes a named function for it explicitly (`t<fn>`), none deduced, defaulted or a pointer variable
// REFUSED: :[[#@LINE+21]]:54: warning: kernel 'var' left unchanged: 'apply2' calls 'f', a template parameter
// REFUSED: :[[#@LINE+24]]:82: warning: kernel 'clone' left unchanged: 'apply3' calls 'shift', which reads the coarsened thread or block index and so is called per copy through a clone, but this call may call other functions too
typedef float (*reduce_fn)(float);
__device__ float warp_sum(float v) { for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o); return v; }
__device__ float warp_max(float v) { for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o)); return v; }
template <reduce_fn f> __device__ float reduce(float v, float init) { return f(v) + init; }
template <reduce_fn f> __device__ float reduce(float v) { return reduce<f>(v, 0.0f); }
__global__ void k(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = reduce<warp_sum>(in[i]);
  float m = reduce<&warp_max>(in[i], -1.0f);
  out[i] = s + m;
}
// A default template argument: a naming that does not say what it passes.
__device__ float twice(float v) { return 2 * v; }
template <reduce_fn f = twice> __device__ float apply(float v) { return f(v); }
__global__ void dflt(float *out) { out[threadIdx.x] = apply<twice>(out[threadIdx.x]) + apply(1.0f); }
// A pointer variable passed for it.
__device__ float half_of(float v) { return v / 2; }
constexpr reduce_fn chosen = half_of;
template <reduce_fn f> __device__ float apply2(float v) { return f(v); }
__global__ void var(float *out) { out[threadIdx.x] = apply2<chosen>(out[threadIdx.x]); }
// A function that reads blockIdx: a clone per copy this call cannot name.
__device__ float shift(float v) { return v + blockIdx.x; }
template <reduce_fn f> __device__ float apply3(float v) { return f(v); }
__global__ void clone(float *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = apply3<shift>(1.0f); }
int main() { k<<<2, 64>>>(0, 0); dflt<<<1, 32>>>(0); var<<<1, 32>>>(0); clone<<<2, 32>>>(0); }
