#include "mm.cuh"

void run_small(float *c, const float *a) { mm<16><<<dim3(64, 64), dim3(16, 16)>>>(c, a); }
