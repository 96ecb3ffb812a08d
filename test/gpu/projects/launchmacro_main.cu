// Driver of test/lit/project/Inputs/launchmacro (launches through the
// project's macros LAUNCH and LAUNCH_CHECKED of a common header, in a.cu
// and in b.cu, which only declares the kernel).  Prints `project: OK`.
#include <cstdio>
#include <vector>

void run_a(float *p, int n, int b);
void run_b(float *p, int n);

int main() {
  const int n = 4096;
  std::vector<float> h(n), got(n);
  for (int i = 0; i < n; i++)
    h[i] = (float)i;
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  for (int b : {1, 33, 128}) {
    cudaMemcpy(p, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    run_a(p, n, b); /* twice scaled by 2 */
    run_b(p, n);    /* once more */
    cudaMemcpy(got.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
      if (got[i] != 8.0f * h[i]) {
        std::printf("project: block %d: element %d is %g, expected %g\n", b, i, got[i], 8.0f * h[i]);
        return 1;
      }
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("project: CUDA error %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::printf("project: OK\n");
  return 0;
}
