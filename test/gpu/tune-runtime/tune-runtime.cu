/* GPU test program of the tuning runtime (runtime/include/tfuse/tune.h,
 * runtime/src/tune.cpp): one launch site in the shape `tfuse -factor auto`
 * emits, with hand-written candidates of kernel 'sc' (out[i] = 2 in[i] + 1):
 *   0 original     K = 1, plus busy work that changes nothing (slow)
 *   1 block.x:2    correct, busy work
 *   2 block.x:4    correct, busy work
 *   3 block.x:8    PLANTED: no busy work (the fastest by far), and element
 *                  1000 one ulp up: it must be disqualified (bitwise), and
 *                  with TFUSE_CHECK_ULP=1 it qualifies and wins
 *   4 thread.x:3   cannot divide the block of 256: skipped, never launched
 * usage: tune-runtime basic|host|graph|instances|empty
 *   basic  two launches, then compares out with the CPU's result and prints
 *          "results OK" or "results differ at N element(s)"
 *   host   a writable argument in pageable host memory: not tuned
 *   graph  the launch captured into a CUDA graph, then the graph run
 *   instances  one site in a host template (as tfuse emits a launch whose
 *          kernel depends on the template's parameters: the site carries
 *          __PRETTY_FUNCTION__), instantiated for float and int, each
 *          launched twice with the same shape: two keys, each tuned once;
 *          prints "instances OK" when both results are right
 *   empty  a launch of 'sc' with an empty grid (n = 0), twice: not tuned, and
 *          each launch error is that of a plain launch of the original with
 *          the same grid; prints "empty OK" */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <tfuse/prelude.h>
#include <tfuse/tune.h>

#define N (1 << 22)
#define BLOCK 256
#define ITERS 2000

__device__ float busy(float v, int iters) {
  for (int j = 0; j < iters; j++)
    v = v * 0.9999f + 0.5f;
  return v;
}

template <int K, bool PLANT>
__global__ void sc(unsigned int grid_x, const float *in, float *out, int n, int iters) {
  for (int r = 0; r < K; r++) {
    unsigned int b = blockIdx.x * K + r;
    if (b >= grid_x)
      break;
    int i = b * blockDim.x + threadIdx.x;
    if (i < n) {
      float v = in[i] * 2.0f + 1.0f;
      if (PLANT && i == 1000)
        v = __int_as_float(__float_as_int(v) + 1);
      float w = PLANT ? v : busy(v, iters);
      out[i] = w == -12345.0f ? w : v; /* w never is: the busy work changes nothing */
    }
  }
}

static void run_sc(const float *in, float *out, int n, cudaStream_t st) {
  const dim3 g((n + BLOCK - 1) / BLOCK), b(BLOCK);
  static const tfuse_tune_cand cands[] = {{0, 0, 1u, "original"},  {1, 0, 2u, "block.x:2"},
                                          {1, 0, 4u, "block.x:4"}, {1, 0, 8u, "block.x:8"},
                                          {2, 0, 3u, "thread.x:3"}};
  static tfuse_tune_site site = {"sc", "0000000000000001", "tune-runtime.cu:58", 5, cands, 0};
  auto launch = [&](int c) {
    switch (c) {
    case 1: sc<2, false><<<::tfuse_rt::coarsen_grid(g, 0, 2u), b, 0, st>>>(g.x, in, out, n, ITERS); break;
    case 2: sc<4, false><<<::tfuse_rt::coarsen_grid(g, 0, 4u), b, 0, st>>>(g.x, in, out, n, ITERS); break;
    case 3: sc<8, true><<<::tfuse_rt::coarsen_grid(g, 0, 8u), b, 0, st>>>(g.x, in, out, n, ITERS); break;
    case 4: std::printf("BUG: candidate thread.x:3 launched\n"); std::exit(3);
    default: sc<1, false><<<g, b, 0, st>>>(g.x, in, out, n, ITERS); break;
    }
  };
  ::tfuse_rt::Tune t(&site, g, b, 0, st);
  if (t.tuning()) {
    t.track(in, "in"); /* const: not tracked */
    t.track(out, "out");
    t.tune(launch);
  }
  launch(t.choice());
}

__global__ void hk(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

static void run_hk(float *out, int n) {
  const dim3 g(4), b(64);
  static const tfuse_tune_cand cands[] = {{0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}};
  static tfuse_tune_site site = {"hk", "0000000000000002", "tune-runtime.cu:86", 2, cands, 0};
  auto launch = [&](int c) {
    (void)c;
    hk<<<g, b>>>(out, n);
  };
  ::tfuse_rt::Tune t(&site, g, b, 0, 0);
  if (t.tuning()) {
    t.track(out, "out");
    t.tune(launch);
  }
  launch(t.choice());
}

template <int K, typename T>
__global__ void ik(unsigned int grid_x, T *out, int n) {
  for (int r = 0; r < K; r++) {
    unsigned int b = blockIdx.x * K + r;
    if (b >= grid_x)
      break;
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = (T)(i % 1000);
  }
}

template <typename T> static void run_inst(T *out, int n) {
  const dim3 g((n + BLOCK - 1) / BLOCK), b(BLOCK);
  static const tfuse_tune_cand cands[] = {{0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}};
  static tfuse_tune_site site = {"ik", "0000000000000003", "tune-runtime.cu:117", 2, cands, 0, __PRETTY_FUNCTION__};
  auto launch = [&](int c) {
    if (c == 1)
      ik<2, T><<<::tfuse_rt::coarsen_grid(g, 0, 2u), b>>>(g.x, out, n);
    else
      ik<1, T><<<g, b>>>(g.x, out, n);
  };
  ::tfuse_rt::Tune t(&site, g, b, 0, 0);
  if (t.tuning()) {
    t.track(out, "out");
    t.tune(launch);
  }
  launch(t.choice());
}

template <typename T> static int check_inst(const T *dev, int n) {
  std::vector<T> h(n);
  if (cudaMemcpy(h.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess)
    return n;
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += h[i] != (T)(i % 1000);
  return bad;
}

#define CK(x)                                                                                          \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                           \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__);                     \
      return 1;                                                                                        \
    }                                                                                                  \
  } while (0)

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "basic";
  std::vector<float> h(N), got(N);
  for (int i = 0; i < N; i++)
    h[i] = (float)(i % 1000) * 0.25f;
  float *in, *out;
  CK(cudaMalloc(&in, N * sizeof(float)));
  CK(cudaMalloc(&out, N * sizeof(float)));
  CK(cudaMemcpy(in, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemset(out, 0xff, N * sizeof(float)));
  if (!std::strcmp(mode, "host")) {
    float *p = (float *)std::malloc(64 * sizeof(float));
    run_hk(p, 0); /* never dereferenced: n = 0 */
    run_hk(p, 0);
    CK(cudaDeviceSynchronize());
    std::printf("host done\n");
    return 0;
  }
  if (!std::strcmp(mode, "instances")) {
    int *outi;
    CK(cudaMalloc(&outi, N * sizeof(int)));
    for (int j = 0; j < 2; j++) {
      run_inst(out, N);
      run_inst(outi, N);
    }
    CK(cudaDeviceSynchronize());
    int bad = check_inst(out, N) + check_inst(outi, N);
    std::printf(bad ? "instances: results differ at %d element(s)\n" : "instances OK\n", bad);
    return 0;
  }
  if (!std::strcmp(mode, "empty")) {
    int bad = 0;
    sc<1, false><<<dim3(0), dim3(BLOCK)>>>(0, in, out, 0, ITERS); /* the original's error, without the runtime */
    cudaError_t want = cudaGetLastError();
    if (want == cudaSuccess) {
      std::printf("empty: a launch with an empty grid did not fail\n");
      bad++;
    }
    for (int j = 0; j < 2; j++) {
      run_sc(in, out, 0, 0);
      cudaError_t e = cudaGetLastError();
      if (e != want) {
        std::printf("empty: launch %d: %s, not %s\n", j, cudaGetErrorString(e), cudaGetErrorString(want));
        bad++;
      }
    }
    CK(cudaDeviceSynchronize());
    std::printf(bad ? "empty: wrong launch errors\n" : "empty OK\n");
    return 0;
  }
  if (!std::strcmp(mode, "graph")) {
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    run_sc(in, out, N, st);
    CK(cudaStreamEndCapture(st, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    CK(cudaGraphLaunch(exec, st));
    CK(cudaStreamSynchronize(st));
  } else {
    run_sc(in, out, N, 0);
    run_sc(in, out, N, 0);
    CK(cudaDeviceSynchronize());
  }
  CK(cudaMemcpy(got.data(), out, N * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float want = h[i] * 2.0f + 1.0f;
    bad += std::memcmp(&want, &got[i], sizeof want) != 0;
  }
  if (bad)
    std::printf("results differ at %d element(s)\n", bad);
  else
    std::printf("results OK\n");
  return 0;
}
