#include "common.h"

__global__ void scale(float *p, int n);

void run_b(float *p, int n) { LAUNCH(scale, n / 64, 64, p, n); }
