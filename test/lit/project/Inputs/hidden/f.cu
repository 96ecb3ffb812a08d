#include "kdef.cuh"
#define HDR "d.cuh"
#include HDR
void call_f(float *x) { run_d(x); undeclared_thing(); }
