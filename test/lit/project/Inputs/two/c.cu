#include "kernels.cuh"

void run_c(float *out, const float *in, int n) {
  scale<<<n / 64, 64>>>(out, in, n);
}
