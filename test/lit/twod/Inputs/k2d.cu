#pragma tfuse coarsen
__global__ void k(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n)
    o[j * n + i] = i + j;
}

void host(float *o, int n) { k<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(o, n); }
