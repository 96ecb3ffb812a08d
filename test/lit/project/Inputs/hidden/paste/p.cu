#define DECLARE(n) __global__ void n##_kernel(float *x);
#define LAUNCH(n, x) n##_kernel<<<4, 64>>>(x)
DECLARE(scale)
void run_p(float *x) { LAUNCH(scale, x); }
