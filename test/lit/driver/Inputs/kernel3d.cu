// Input for the driver tests: two small kernels that use all three
// dimensions (so -dim x, y and z all change something) and a host function
// that launches them with run-time extents.

__global__ void scale3d(float *out, const float *in, int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= nx || j >= ny || k >= nz)
    return;
  int idx = (k * ny + j) * nx + i;
  out[idx] = 2.0f * in[idx];
}

__global__ void shift3d(float *out, const float *in, int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < nx && j < ny && k < nz) {
    int idx = (k * ny + j) * nx + i;
    out[idx] = in[idx] + 1.0f;
  }
}

void launch3d(float *out, const float *in, int nx, int ny, int nz, dim3 grid,
              dim3 block) {
  scale3d<<<grid, block>>>(out, in, nx, ny, nz);
  shift3d<<<grid, block>>>(out, out, nx, ny, nz);
}
