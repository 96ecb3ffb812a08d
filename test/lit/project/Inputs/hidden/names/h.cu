#include <lib/copy.h>
void run_h(float *x) { }
