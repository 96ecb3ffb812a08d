// The checked launch that `tfuse -check` emits compiles with nvcc when
// runtime/include/tfuse/check.h follows the prelude, as in an emitted file,
// and asks the check runtime for what its contract says: begin with kernel,
// site and stream; one track per writable pointer argument, with the
// element kind (float, double, else bytes) and size (void * is bytes of
// size 1); nothing for pointers to const or nullptr; original_done and
// coarsened_done around the two launches; abandon only for a Check left
// unfinished.  The library is replaced by a mock that prints each call
// (Inputs/mock-check.cpp).  Runs without a GPU: the kernels get n = 0 and
// their launches fail harmlessly there.
// REQUIRES: nvcc
// RUN: cat %src-root/runtime/include/tfuse/prelude.h %src-root/runtime/include/tfuse/check.h %s > %t.cu
// RUN: %nvcc -arch=sm_90 -std=c++17 -I %src-root/runtime/include %t.cu %S/Inputs/mock-check.cpp -o %t
// RUN: %t | FileCheck %s

// CHECK:      begin k k.cu:42 stream=(nil)
// CHECK-NEXT: track k out p=0x1000 kind=float size=4
// CHECK-NEXT: track k d p=0x2000 kind=double size=8
// CHECK-NEXT: track k iv p=0x3000 kind=bytes size=4
// CHECK-NEXT: track k raw p=0x4000 kind=bytes size=1
// CHECK-NEXT: track k vf p=0x5000 kind=float size=4
// CHECK-NEXT: track k s p=0x6000 kind=bytes size=12
// CHECK-NEXT: original_done k
// CHECK-NEXT: coarsened_done k
// CHECK-NEXT: begin t t.cu:7 stream=(nil)
// CHECK-NEXT: track t y p=0x7000 kind=float size=4
// CHECK-NEXT: original_done t
// CHECK-NEXT: coarsened_done t
// CHECK-NEXT: begin left left.cu:1 stream=(nil)
// CHECK-NEXT: abandon left
// CHECK-NEXT: done
// CHECK-NOT:  {{.}}

struct S {
  float a, b, c;
};

// Block mode, K = 4.
__global__ void k__tf_orig(const float *in, float *out, double *d, int *iv, void *raw,
                           const void *craw, volatile float *vf, S *s, float *none, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
__global__ void k(unsigned int __tf_grid_x, const float *in, float *out, double *d, int *iv,
                  void *raw, const void *craw, volatile float *vf, S *s, float *none, int n) {
  for (unsigned int r = 0, b = blockIdx.x * 4; r < 4 && b < __tf_grid_x; r++, b++) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = in[i];
  }
}

// Thread mode, K = 2.
__global__ void t__tf_orig(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i];
}
__global__ void t(const float *x, float *y, int n) {
  for (unsigned int r = 0; r < 2; r++) {
    int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x + r * blockDim.x;
    if (i < n)
      y[i] += x[i];
  }
}

int main() {
  const float *in = (const float *)0x800;
  float *out = (float *)0x1000;
  double *d = (double *)0x2000;
  int *iv = (int *)0x3000;
  void *raw = (void *)0x4000;
  const void *craw = (const void *)0x4800;
  volatile float *vf = (volatile float *)0x5000;
  S *s = (S *)0x6000;
  int n = 0;
  dim3 grid(10), block(256);

  // k<<<grid, block>>>(in, out, d, iv, raw, craw, vf, s, nullptr, n);
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (in); auto __tf_a1 = (out); auto __tf_a2 = (d); auto __tf_a3 = (iv); auto __tf_a4 = (raw);
      auto __tf_a5 = (craw); auto __tf_a6 = (vf); auto __tf_a7 = (s); auto __tf_a8 = (nullptr); auto __tf_a9 = (n);
      ::tfuse_rt::Check __tf_check("k", "k.cu:42", __tf_stream);
      __tf_check.track(__tf_a0, "in");
      __tf_check.track(__tf_a1, "out");
      __tf_check.track(__tf_a2, "d");
      __tf_check.track(__tf_a3, "iv");
      __tf_check.track(__tf_a4, "raw");
      __tf_check.track(__tf_a5, "craw");
      __tf_check.track(__tf_a6, "vf");
      __tf_check.track(__tf_a7, "s");
      __tf_check.track(__tf_a8, "none");
      k__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2, __tf_a3, __tf_a4, __tf_a5, __tf_a6, __tf_a7, __tf_a8, __tf_a9);
      __tf_check.original_done();
      k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1, __tf_a2, __tf_a3, __tf_a4, __tf_a5, __tf_a6, __tf_a7, __tf_a8, __tf_a9);
      __tf_check.coarsened_done();
    } else {
      k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), in, out, d, iv, raw, craw, vf, s, nullptr, n);
    }
  }

  // t<<<grid, block>>>(in, (float *)0x7000, n);
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (in); auto __tf_a1 = ((float *)0x7000); auto __tf_a2 = (n);
      ::tfuse_rt::Check __tf_check("t", "t.cu:7", __tf_stream);
      __tf_check.track(__tf_a0, "x");
      __tf_check.track(__tf_a1, "y");
      t__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2);
      __tf_check.original_done();
      t<<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "t", "t.cu:7"), __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2);
      __tf_check.coarsened_done();
    } else {
      t<<<__tf_grid, ::tfuse_rt::coarsen_block(block, 0, 2u, "t", "t.cu:7")>>>(in, (float *)0x7000, n);
    }
  }

  // A Check that never reaches coarsened_done gives its launch back.
  { ::tfuse_rt::Check left("left", "left.cu:1", 0); }
  std::printf("done\n");
  return 0;
}
