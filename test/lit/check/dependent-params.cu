// -check and a template helper's parameters of dependent type: `T p` may
// be a pointer (T = float *), so what the helper writes through it is the
// argument's (here `out`, tracked); a class template's specialization
// (`Packed<T>`, llm.c's Packed128) is never a pointer, so passing one by
// value writes nothing and is no blind spot.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 2 -all-kernels %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      ::tfuse_rt::Check __tf_check("through_t",
// CHECK-NEXT: __tf_check.track(o, "out");
// CHECK-NEXT: through_t__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("packed_by_value",
// CHECK-NEXT: __tf_check.track(o, "out");
// CHECK-NEXT: packed_by_value__tf_orig<<<

template <class T> struct Packed {
  T v[4];
};

template <class P> __device__ void put(P p, float v) { *p = v; }

template <class T> __device__ void store4(T *target, Packed<T> p) {
  for (int k = 0; k < 4; k++)
    target[k] = p.v[k];
}

__global__ void through_t(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    put(out + i, 2.0f * in[i]);
}

__global__ void packed_by_value(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Packed<float> p;
    for (int k = 0; k < 4; k++)
      p.v[k] = in[4 * i + k];
    store4(out + 4 * i, p);
  }
}

void run(float *o, const float *in, int n) {
  through_t<<<(n + 127) / 128, 128>>>(o, in, n);
  packed_by_value<<<(n + 127) / 128, 128>>>(o, in, n / 4);
}
