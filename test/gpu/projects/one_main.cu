// Driver of test/lit/project/Inputs/outroot (src/k.cu, whose kernel is
// declared in inc/k.h, a header outside the sources' folder) and of
// test/lit/refuse/dynamic-parallelism.cu (a parent kernel launching a
// child from the device): each defines `void run(float *, int)` that
// fills or scales n elements.  Every element starts as INIT and must
// become EXPECT.  Prints `project: OK`.
#include <cstdio>
#include <vector>

void run(float *p, int n);

int main() {
  const int n = 4000;
  std::vector<float> h(n, INIT), got(n);
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  run(p, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("project: CUDA error %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(got.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    if (got[i] != EXPECT) {
      std::printf("project: element %d is %g, expected %g\n", i, got[i], (float)EXPECT);
      return 1;
    }
  std::printf("project: OK\n");
  return 0;
}
