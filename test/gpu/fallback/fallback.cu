// A program whose launches the coarsened kernels cannot all serve: tfuse
// keeps each original beside its coarsened kernel and the launches it
// cannot serve run the original (test/gpu/fallback/run.sh).  Each kernel's
// result is compared with the host's; the program prints `fallback: OK`
// or the first wrong element and exits 1.
#include <cstdio>
#include <cstdlib>
#include <vector>

// Every element scaled: any block size.
__global__ void scale(float *o, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    o[i] = 3.0f * a[i] + 1.0f;
}

// Warp-synchronous: each warp's sum of a, written by its lane 0 (the block
// is whole warps in the original).
__global__ void warp_sum(float *o, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] : 0.0f;
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0 && i < n)
    o[i / 32] = v;
}

// Many live values per thread: coarsened by 8 in block mode it needs more
// registers than a block of 1024 threads can have (the copies' arrays are
// live together, statement by statement; a call to heavy_value would keep
// one copy's at a time).  heavy_value is the host's reference.
__global__ void heavy(float *o, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = a[i], acc[24];
  for (int j = 0; j < 24; j++)
    acc[j] = x * (j + 1);
  for (int r = 0; r < 8; r++)
    for (int j = 0; j < 24; j++)
      acc[j] = acc[j] * 0.5f + acc[(j + 7) % 24] * 0.25f;
  float s = 0;
  for (int j = 0; j < 24; j++)
    s += acc[j];
  o[i] = s;
}

static float heavy_value(float x) {
  float acc[24];
  for (int j = 0; j < 24; j++)
    acc[j] = x * (j + 1);
  for (int r = 0; r < 8; r++)
    for (int j = 0; j < 24; j++)
      acc[j] = acc[j] * 0.5f + acc[(j + 7) % 24] * 0.25f;
  float s = 0;
  for (int j = 0; j < 24; j++)
    s += acc[j];
  return s;
}

// Dynamic shared memory: each block reverses its slice.
__global__ void reverse(float *o, const float *a, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  if (i < n)
    o[i] = s[blockDim.x - 1 - threadIdx.x];
}

static int failures;
static void expect(const char *what, int block, const std::vector<float> &got, const std::vector<float> &want,
                   float tol) {
  for (size_t i = 0; i < want.size(); i++) {
    float d = got[i] - want[i];
    if (d < 0)
      d = -d;
    if (d > tol * (want[i] < 0 ? -want[i] : want[i]) + tol) {
      std::printf("fallback: %s with %d threads per block: element %zu is %g, expected %g\n", what, block, i,
                  got[i], want[i]);
      failures++;
      return;
    }
  }
}

int main(int argc, char **argv) {
  const int n = 1 << 16;
  int blocks[] = {1, 33, 96, 128, 1024};
  std::vector<float> a(n), o(n), want(n);
  for (int i = 0; i < n; i++)
    a[i] = (float)((i * 37) % 101) / 7.0f;
  float *da, *dout;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int b : blocks) {
    cudaMemset(dout, 0, n * sizeof(float));
    scale<<<(n + b - 1) / b, b>>>(dout, da, n);
    cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
      want[i] = 3.0f * a[i] + 1.0f;
    expect("scale", b, o, want, 1e-6f); /* the device may contract 3 * a + 1 */

    cudaMemset(dout, 0, n * sizeof(float));
    heavy<<<(n + b - 1) / b, b>>>(dout, da, n);
    cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
      want[i] = heavy_value(a[i]);
    expect("heavy", b, o, want, 1e-4f);

    /* 40 KB of shared memory per block for the largest blocks: 8 shares are
     * more than any GPU gives a block. */
    size_t smem = (b >= 1024 ? 10240 : b) * sizeof(float);
    cudaMemset(dout, 0, n * sizeof(float));
    reverse<<<(n + b - 1) / b, b, smem>>>(dout, da, n);
    cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
      int base = i / b * b, t = i - base, j = base + b - 1 - t;
      want[i] = j < n ? a[j] : 0.0f;
    }
    expect("reverse", b, o, want, 0.0f);

    /* The same two kernels through the runtime's launch functions. */
    int nn = n;
    void *args[] = {&dout, &da, &nn};
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + b - 1) / b);
    cfg.blockDim = dim3(b);
    for (int api = 0; api < 2; api++) {
      cudaMemset(dout, 0, n * sizeof(float));
      if (api == 0)
        cudaLaunchKernel((const void *)heavy, dim3((n + b - 1) / b), dim3(b), args, 0, 0);
      else
        cudaLaunchKernelEx(&cfg, heavy, dout, (const float *)da, n);
      cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; i++)
        want[i] = heavy_value(a[i]);
      expect(api == 0 ? "heavy (cudaLaunchKernel)" : "heavy (cudaLaunchKernelEx)", b, o, want, 1e-4f);
    }
    cfg.dynamicSmemBytes = smem;
    for (int api = 0; api < 2; api++) {
      cudaMemset(dout, 0, n * sizeof(float));
      if (api == 0)
        cudaLaunchKernel((const void *)reverse, dim3((n + b - 1) / b), dim3(b), args, smem, 0);
      else
        cudaLaunchKernelEx(&cfg, reverse, dout, (const float *)da, n);
      cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; i++) {
        int base = i / b * b, t = i - base, j = base + b - 1 - t;
        want[i] = j < n ? a[j] : 0.0f;
      }
      expect(api == 0 ? "reverse (cudaLaunchKernel)" : "reverse (cudaLaunchKernelEx)", b, o, want, 0.0f);
    }
  }
  for (int b : {64, 96, 256}) {
    cudaMemset(dout, 0, n * sizeof(float));
    warp_sum<<<(n + b - 1) / b, b>>>(dout, da, n);
    cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::vector<float> ws(n / 32), got(o.begin(), o.begin() + n / 32);
    for (int w = 0; w < n / 32; w++) {
      float s = 0;
      for (int l = 0; l < 32; l++)
        s += a[w * 32 + l];
      ws[w] = s;
    }
    expect("warp_sum", b, got, ws, 1e-5f);
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("fallback: CUDA error %s\n", cudaGetErrorString(e));
    return 1;
  }
  if (failures)
    return 1;
  std::printf("fallback: OK\n");
  (void)argc;
  (void)argv;
  return 0;
}
