// Lambdas in a kernel are coarsened only as locals called by name; what
// the per-copy rendering cannot make exact is refused, located at the
// lambda or the use: an init-capture whose initializer writes a variable
// or calls a function (each copy's closure would run it), a generic
// lambda, a declared return type, a barrier, warp or shared-memory use, a
// nested lambda, a use other than a call.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 -mode block %s -o %t.out 2>&1 | FileCheck %s
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

template <class F> __device__ float apply(F f, float v) { return f(v); }

#pragma tfuse coarsen
__global__ void captures(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  // CHECK: lambda-limits.cu:[[@LINE+1]]:12: error: an init-capture whose initializer calls a function or writes a variable is not supported (each copy's closure would run it once more)
  auto a = [&acc, in, t = acc++](int j) { acc += in[j] + t; };
  // CHECK: lambda-limits.cu:[[@LINE+1]]:12: error: an init-capture whose initializer calls a function or writes a variable
  auto b = [s = apply([](float v) { return v; }, i * 2.0f)](int j) { return s + j; };
  // CHECK: lambda-limits.cu:[[@LINE+1]]:12: error: a generic lambda (a parameter of type auto) is not supported
  auto c = [&](auto j) { return in[j]; };
  // CHECK: lambda-limits.cu:[[@LINE+1]]:12: error: a lambda with a declared return type (it may return a reference to a copy's variable) is not supported
  auto d = [&]() -> float & { return acc; };
  a(i);
  out[i] = b(1) + c(i) + d();
}

#pragma tfuse coarsen
__global__ void bodies(float *out, const float *in) {
  __shared__ float sh[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: lambda-limits.cu:[[@LINE+1]]:15: error: a barrier inside a lambda is not supported
  auto sync = [&]() { __syncthreads(); };
  // CHECK: lambda-limits.cu:[[@LINE+1]]:15: error: warp-synchronous calls and cooperative groups inside a lambda are not supported
  auto shfl = [&](float v) { return __shfl_xor_sync(0xffffffffu, v, 1); };
  // CHECK: lambda-limits.cu:[[@LINE+1]]:16: error: a lambda that names __shared__ 'sh' is not supported
  auto store = [&](float v) { sh[threadIdx.x] = v; };
  // CHECK: lambda-limits.cu:[[@LINE+1]]:44: error: a lambda inside a lambda is not supported
  auto outer = [&](float v) { auto inner = [](float w) { return w; }; return inner(v); };
  sync();
  store(shfl(in[i]));
  out[i] = outer(sh[0]);
}

#pragma tfuse coarsen
__global__ void uses(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto sq = [](float v) { return v * v; };
  // CHECK: lambda-limits.cu:[[@LINE+1]]:18: error: lambda 'sq' used other than called (passed, copied, its address taken)
  out[i] = apply(sq, in[i]);
  // CHECK: lambda-limits.cu:[[@LINE+1]]:12: error: only a lambda that initializes a local (`auto f = [&](...) {...};`), outside a macro, is coarsened
  out[i] = [&] { return in[i]; }();
}

int main() {
  float *o = 0, *in = 0;
  captures<<<4, 64>>>(o, in);
  bodies<<<4, 64>>>(o, in);
  uses<<<4, 64>>>(o, in);
}
