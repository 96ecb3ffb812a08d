// The cost of the launch dispatch (bench/dispatch.sh): host time per launch
// of a one-block kernel, whose run time is far below a launch's cost, with
// a block size known only at run time.  Built as written (the original)
// and coarsened by tfuse, where each launch first asks whether the
// coarsened kernel serves its block (serves_block / serves_threads) and
// runs the original where not.  Prints one line per block size:
//   dispatch: block B: N launches, T us per launch
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void tiny(float *o) { o[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 200000;
  float *o;
  cudaMalloc(&o, 1024 * sizeof(float));
  cudaMemset(o, 0, 1024 * sizeof(float));
  int blocks[] = {256, 33};
  for (int b : blocks) {
    for (int i = 0; i < 1000; i++) /* warm up */
      tiny<<<1, b>>>(o);
    cudaDeviceSynchronize();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++)
      tiny<<<1, b>>>(o);
    cudaDeviceSynchronize();
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    std::printf("dispatch: block %d: %d launches, %.3f us per launch\n", b, n, us / n);
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::printf("dispatch: CUDA error %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
