// A kernel in a header that two files launch: both are in one group.
__global__ void in_header(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1;
}
