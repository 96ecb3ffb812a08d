__global__ void k1(float *x);
void run_b(float *x) { k1<<<4, 32>>>(x); }
