#include "h.cuh"
void run_a(float *x) { k1<<<4, 64>>>(x); }
