#include "shared.cuh"
void run_one(int *v, int n) { in_header<<<(n + 127) / 128, 128>>>(v, n); }
