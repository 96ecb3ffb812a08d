#include "kdef.cuh"
#define HDR "d.cuh"
#include HDR
void call_d(float *x) { run_d(x); }
