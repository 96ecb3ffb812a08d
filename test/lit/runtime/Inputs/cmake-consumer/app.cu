// A checked launch in the shape `tfuse -check` emits, with the installed
// headers.
#include <tfuse/prelude.h>
#include <tfuse/check.h>

__global__ void fill__tf_orig(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i;
}
__global__ void fill(unsigned int __tf_grid_x, int *out, int n) {
  for (unsigned int r = 0, b = blockIdx.x * 2; r < 2 && b < __tf_grid_x; r++, b++) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = i;
  }
}

int main() {
  int n = 1000, *out = 0;
  cudaMalloc(&out, n * sizeof(int));
  dim3 grid((n + 127) / 128), block(128);
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (out); auto __tf_a1 = (n);
      ::tfuse_rt::Check __tf_check("fill", "app.cu:27", __tf_stream);
      __tf_check.track(__tf_a0, "out");
      fill__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1);
      __tf_check.original_done();
      fill<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1);
      __tf_check.coarsened_done();
    } else {
      fill<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), out, n);
    }
  }
  return cudaDeviceSynchronize() != cudaSuccess;
}
