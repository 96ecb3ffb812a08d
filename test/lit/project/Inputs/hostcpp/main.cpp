#include "scale.cuh"

int main() {
  float *p = nullptr;
  cudaMalloc(&p, 1024 * sizeof(float));
  scale_on_device(p, 1024, 128);
  cudaFree(p);
  return 0;
}
