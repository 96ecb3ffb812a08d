#include "kdef.cuh"
#define LAUNCH(k, g, b, x) k<<<g, b>>>(x)
void run_b(float *x) { LAUNCH(twice, 8, 128, x); }
