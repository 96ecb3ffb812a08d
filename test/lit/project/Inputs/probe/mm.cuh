// A template kernel of a header whose shared arrays' sizes depend on its
// argument (project/shared-probe.test): small.cu launches mm<16>, big.cu
// mm<32>.
#pragma once
#pragma tfuse coarsen
template <int BS> __global__ void mm(float *c, const float *a) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  As[ty][tx] = a[row * 1024 + col];
  Bs[ty][tx] = a[col * 1024 + row];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < BS; k++)
    s += As[ty][k] * Bs[k][tx];
  c[row * 1024 + col] = s;
}
