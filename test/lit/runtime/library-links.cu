// A program with a checked launch links against the check runtime with
// nvcc, both from the source (runtime/src/check.cpp) and as the archive the
// CMake build makes (lib/libtfuse_check.a), with -lcuda, as docs/check.md says.
// Run without a GPU (a copy of the CUDA stub driver stands in for
// libcuda.so.1, so CUDA itself fails, also on a machine with a GPU):
//   - check_on() is false when the environment variable that turns checking
//     on is unset, "0" or empty: the coarsened launch runs alone, and the
//     library prints nothing;
//   - when it is "1", check_on() is true, and the CUDA failure inside the
//     check is reported with kernel and site, exit status 1, and the summary.
// REQUIRES: nvcc
// RUN: cat %src-root/runtime/include/tfuse/prelude.h %src-root/runtime/include/tfuse/check.h %s > %t.cu
// RUN: %nvcc -arch=sm_90 -std=c++17 %t.cu %src-root/runtime/src/check.cpp -lcuda -o %t
// RUN: %nvcc -arch=sm_90 -std=c++17 %t.cu %build-root/lib/libtfuse_check.a -lcuda -o %t.a
// RUN: rm -rf %t.stub && mkdir %t.stub && ln -s %cuda-path/lib64/stubs/libcuda.so %t.stub/libcuda.so.1
//
// RUN: env -u %{checkenv} LD_LIBRARY_PATH=%t.stub %t 2>&1 | FileCheck --check-prefix=OFF %s
// RUN: env %{checkenv}=0 LD_LIBRARY_PATH=%t.stub %t 2>&1 | FileCheck --check-prefix=OFF %s
// RUN: env %{checkenv}= LD_LIBRARY_PATH=%t.stub %t.a 2>&1 | FileCheck --check-prefix=OFF %s
// OFF:      check_on 0
// OFF-NEXT: coarsened only
// OFF-NEXT: end
// OFF-NOT:  {{.}}
//
// RUN: env %{checkenv}=1 LD_LIBRARY_PATH=%t.stub not %t > %t.on 2>&1
// RUN: FileCheck --check-prefix=ON %s < %t.on
// RUN: env %{checkenv}=yes LD_LIBRARY_PATH=%t.stub not %t.a > %t.on.a 2>&1
// RUN: FileCheck --check-prefix=ON %s < %t.on.a
// ON:      check_on 1
// ON-NEXT: tfuse-check: error: vecadd at vecadd.cu:42: initialising CUDA: {{.+}}
// ON-NEXT: tfuse-check: kernel 'vecadd': 0 launches checked, 0 mismatches
// ON-NOT:  {{.}}

__global__ void vecadd__tf_orig(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1.0f;
}
__global__ void vecadd(unsigned int __tf_grid_x, const float *in, float *out, int n) {
  for (unsigned int r = 0, b = blockIdx.x * 4; r < 4 && b < __tf_grid_x; r++, b++) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = in[i] + 1.0f;
  }
}

int main() {
  const float *in = 0;
  float *out = 0;
  int n = 0;
  dim3 grid(1), block(32);
  std::printf("check_on %d\n", (int)::tfuse_rt::check_on());
  std::fflush(stdout);
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (in); auto __tf_a1 = (out); auto __tf_a2 = (n);
      ::tfuse_rt::Check __tf_check("vecadd", "vecadd.cu:42", __tf_stream);
      __tf_check.track(__tf_a0, "in");
      __tf_check.track(__tf_a1, "out");
      vecadd__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2);
      __tf_check.original_done();
      vecadd<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1, __tf_a2);
      __tf_check.coarsened_done();
    } else {
      std::printf("coarsened only\n");
      vecadd<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), in, out, n);
    }
  }
  std::printf("end\n");
  return 0;
}
