// Driver of the multi-file project test/lit/project/Inputs/multifile (a
// static kernel `k` in a.cu and in b.cu, an `extern __device__` counter
// defined in hits.cu and counted in counter.cu, a namespace-scope table of
// kernel pointers in registry.cu): each launcher runs with several block
// sizes and its result is checked on the host.  Prints `project: OK`.
#include <cstdio>
#include <vector>

void run_a(float *p, int n, int b);
void run_b(float *p, int n);
void run_c(const float *p, int n);
void run_r(int which, float *p, int n, int b);
extern __device__ unsigned int hits;

static int failures;
static void check(const char *what, int b, const float *dp, const std::vector<float> &want) {
  std::vector<float> got(want.size());
  cudaMemcpy(got.data(), dp, want.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < want.size(); i++)
    if (got[i] != want[i]) {
      std::printf("project: %s with block %d: element %zu is %g, expected %g\n", what, b, i, got[i], want[i]);
      failures++;
      return;
    }
}

int main() {
  const int n = 5000;
  std::vector<float> h(n), want(n);
  for (int i = 0; i < n; i++)
    h[i] = (float)(i % 7) - 3.0f;
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  for (int b : {1, 33, 64, 256}) {
    cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    run_a(p, n, b);
    for (int i = 0; i < n; i++)
      want[i] = h[i] + 1.0f;
    check("run_a", b, p, want);
    run_b(p, n);
    for (int i = 0; i < n; i++)
      want[i] *= 3.0f;
    check("run_b", b, p, want);
    run_r(0, p, n, b);
    for (int i = 0; i < n; i++)
      want[i] += 1.0f;
    check("run_r(inc)", b, p, want);
    run_r(1, p, n, b);
    for (int i = 0; i < n; i++)
      want[i] *= 2.0f;
    check("run_r(dbl)", b, p, want);
  }
  unsigned int zero = 0, got = 0, expect = 0;
  cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(hits, &zero, sizeof zero);
  run_c(p, n);
  cudaMemcpyFromSymbol(&got, hits, sizeof got);
  for (int i = 0; i < n; i++)
    expect += h[i] > 0;
  if (got != expect) {
    std::printf("project: run_c counted %u, expected %u\n", got, expect);
    failures++;
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("project: CUDA error %s\n", cudaGetErrorString(e));
    return 1;
  }
  if (failures)
    return 1;
  std::printf("project: OK\n");
  return 0;
}
