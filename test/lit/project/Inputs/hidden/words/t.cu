// Another program: 'sum' here is a local of its own kernel, and a word in
// this comment; neither is a use of s.cu's kernel.
__global__ void total(const float *x, float *out) {
  float sum = x[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum * 2.0f;
}
void run_t(const float *x, float *out) { total<<<4, 64>>>(x, out); }
