// -check tracks what a kernel writes beyond its pointer arguments: a
// struct argument whose pointers it writes through gets track_value (a
// helper writing through one counts); a pointer argument whose elements hold
// the pointers written through gets track_table (const or not, `rows[r][i]`,
// `layers[l].w[i]`); each __device__ variable written gets track_symbol by
// its qualified name, and a pointer-valued one written through gets
// track_symbol(..., true); a variable declared after the launch is the
// unnamed-variable blind spot, and a store through a pointer made from an
// integer is the untraced one, with its place.  A kernel with only
// pointer arguments keeps the plain track calls.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 2 %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK:      ::tfuse_rt::Check __tf_check("kstruct",
// CHECK-NEXT: __tf_check.track_value({{.*}}, "p");
// CHECK-NEXT: kstruct__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("ktable",
// CHECK-NEXT: __tf_check.track_table(rows, "rows");
// CHECK-NEXT: ktable__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("klayers",
// CHECK-NEXT: __tf_check.track_table(ls, "layers"); __tf_check.track_symbol(::app::counter, "counter");
// CHECK-NEXT: klayers__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("khelper",
// CHECK-NEXT: __tf_check.track_value({{.*}}, "l");
// CHECK-NEXT: khelper__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("kglobal",
// CHECK-NEXT: __tf_check.track(out, "out"); __tf_check.track_symbol(::g_total, "g_total"); __tf_check.track_symbol(::g_ptr, "g_ptr", true);
// CHECK-NEXT: kglobal__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("kint",
// CHECK-NEXT: __tf_check.blind(TFUSE_CHECK_UNTRACED, "a store through a pointer tfuse cannot trace to an argument or a __device__ variable, at {{.*}}.in.cu:[[# @LINE + 49]]");
// CHECK-NEXT: kint__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("klate",
// CHECK-NEXT: __tf_check.blind(TFUSE_CHECK_UNNAMED, "the __device__ variable 'late', which this launch cannot name");
// CHECK-NEXT: klate__tf_orig<<<
// CHECK:      ::tfuse_rt::Check __tf_check("kplain",
// CHECK-NEXT: __tf_check.track(out, "out");
// CHECK-NEXT: kplain__tf_orig<<<

#include <cstdint>
namespace app { __device__ int counter; }
struct Params { float *out; const float *in; int n; };
struct Layer { float *w; int n; };
__device__ float g_total[4];
__device__ float *g_ptr;

#pragma tfuse coarsen
__global__ void kstruct(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *o = p.out;
  if (i < p.n) o[i] = p.in[i] * 2.0f;
}
#pragma tfuse coarsen
__global__ void ktable(float *const *rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) rows[1][i] = 1.0f;
}
#pragma tfuse coarsen
__global__ void klayers(const Layer *layers, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) layers[1].w[i] = 2.0f;
  if (i == 0) atomicAdd(&app::counter, 1);
}
__device__ void put(float *q, int i) { q[i] = 3.0f; }
#pragma tfuse coarsen
__global__ void khelper(Layer l, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) put(l.w, i);
}
#pragma tfuse coarsen
__global__ void kglobal(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&g_total[0], in[i]);
  if (i < n) g_ptr[i] = out[i];
  if (i < n) out[i] = 0.0f;
}
#pragma tfuse coarsen
__global__ void kint(uintptr_t addr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ((float *)addr)[i] = 1.0f;
}
#pragma tfuse coarsen
__global__ void kplain(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
__global__ void klate(int n);

void host(Params p, float **rows, const Layer *ls, Layer l, float *out, const float *in, uintptr_t a, int n) {
  int g = (n + 255) / 256;
  kstruct<<<g, 256>>>(p);
  ktable<<<g, 256>>>(rows, n);
  klayers<<<g, 256>>>(ls, n);
  khelper<<<g, 256>>>(l, n);
  kglobal<<<g, 256>>>(out, in, n);
  kint<<<g, 256>>>(a, n);
  klate<<<g, 256>>>(n);
  kplain<<<g, 256>>>(out, in, n);
}

__device__ float late[1024];
#pragma tfuse coarsen
__global__ void klate(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) late[i] = 1.0f;
}
