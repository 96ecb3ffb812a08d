// A call of a member of an object whose type depends on a template
// parameter (`value.get_bits()` in a template) may call every method of
// that name in the unit that takes as many arguments: tfuse analyses each
// and accepts the call when it accepts them all (their effects together).
// A data member of that name may be an object or pointer the call goes
// through, and a method that reads blockIdx would need a clone per copy that
// this call cannot name: both refused.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor 2 -mode block -skip-unsafe -all-kernels %t.in.cu -o %t.block.cu 2> %t.block.err
// RUN: FileCheck --check-prefix=BLOCK %s < %t.block.cu
// RUN: FileCheck --check-prefix=REFUSED %s < %t.block.err
// RUN: %nvcc-check %t.block.cu
// RUN: %tfuse -factor 2 -mode thread -skip-unsafe -all-kernels %t.in.cu -o %t.thread.cu 2> %t.thread.err
// RUN: FileCheck --check-prefix=THREAD %s < %t.thread.cu
// RUN: FileCheck --check-prefix=FIELD %s < %t.thread.err
// RUN: %nvcc-check %t.thread.cu
// RUN: %tfuse -dump-after=parse -kernel k %t.in.cu | FileCheck --check-prefix=DUMP %s

// DUMP: CALL 'get_bits'
// DUMP: CALL 'put'

// BLOCK-LABEL: __global__ void k(
// BLOCK:      Packed<float> p_0;
// BLOCK-NEXT: Packed<float> p_1;
// BLOCK-NEXT: fill(p_0, in[i_0]);
// BLOCK-NEXT: if (__tf_ok_1) fill(p_1, in[i_1]);
// BLOCK-NEXT: store128(out + 4 * i_0, p_0);
// BLOCK-NEXT: if (__tf_ok_1) store128(out + 4 * i_1, p_1);

// THREAD-LABEL: __global__ void k(
// THREAD:      fill(p_0, in[i_0]);
// THREAD-NEXT: fill(p_1, in[i_1]);
// THREAD-NEXT: store128(out + 4 * i_0, p_0);
// THREAD-NEXT: store128(out + 4 * i_1, p_1);

// REFUSED: :[[#@LINE+21]]:54: warning: kernel 'field' left unchanged: 'ask' calls 'h.get_id', a member of an object whose type depends on a template parameter: tfuse cannot tell which function it calls
// REFUSED: :[[#@LINE+23]]:53: warning: kernel 'clone' left unchanged: 'get_row' reads blockIdx.x, which coarsening changes; tfuse does not clone member functions or constructors per copy
// FIELD: :[[#@LINE+19]]:54: warning: kernel 'field' left unchanged: 'ask' calls 'h.get_id', a member of an object whose type depends on a template parameter
template <class E> struct Packed {
  E v[4];
  __device__ int4 get_bits() const { return *reinterpret_cast<const int4 *>(v); }
  __device__ void put(int j, E x) { v[j] = x; }
};
template <class E> __device__ void store128(E *t, Packed<E> value) { *reinterpret_cast<int4 *>(t) = value.get_bits(); }
template <class E> __device__ void fill(Packed<E> &p, E x) { for (int j = 0; j < 4; j++) p.put(j, x); }
__global__ void k(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Packed<float> p;
  fill(p, in[i]);
  store128(out + 4 * i, p);
}

struct Fn { __device__ int operator()() const { return 1; } };
struct Holder { Fn get_id; };
struct Other { __device__ int get_id() const { return 2; } };
template <class H> __device__ int ask(H h) { return h.get_id(); }
__global__ void field(int *out) { out[threadIdx.x] = ask(Other()); }

struct Where { __device__ int get_row() const { return blockIdx.x; } };
template <class W> __device__ int row(W w) { return w.get_row(); }
__global__ void clone(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = row(Where()); }
int main() { k<<<2, 32>>>(0, 0); field<<<1, 32>>>(0); clone<<<2, 32>>>(0); }
