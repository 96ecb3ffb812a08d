// Does not parse: 'undeclared_thing' is declared nowhere.
__global__ void broken(float *x) { x[threadIdx.x] = undeclared_thing; }

void run_b(float *x) { broken<<<1, 32>>>(x); }
