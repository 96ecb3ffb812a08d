// Driver of test/lit/project/Inputs/hostcpp, built with the host compiler
// (g++): it includes scale.cuh, the header tfuse rewrites, and calls the
// launcher scale.cu defines.  Prints `project: OK`.
#include "scale.cuh"
#include <cstdio>
#include <vector>

int main() {
  const int n = 3000;
  std::vector<float> h(n), got(n);
  for (int i = 0; i < n; i++)
    h[i] = (float)i;
  float *p = nullptr;
  cudaMalloc(&p, n * sizeof(float));
  for (int b : {1, 96, 128}) {
    cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    scale_on_device(p, n, b);
    cudaMemcpy(got.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
      if (got[i] != 2.0f * h[i]) {
        std::printf("project: block %d: element %d is %g, expected %g\n", b, i, got[i], 2.0f * h[i]);
        return 1;
      }
  }
  std::printf("project: OK\n");
  return 0;
}
