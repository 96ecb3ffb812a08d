#include "kdef.cuh"
#define LAUNCH_PASTED(a, b, g, bl, x) a##b<<<g, bl>>>(x)
void run_b2(float *x) { LAUNCH_PASTED(twi, ce, 8, 128, x); }
