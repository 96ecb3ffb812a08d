/*
 * check-runtime: the GPU test of the `tfuse -check` runtime
 * (runtime/include/tfuse/check.h, runtime/src/check.cpp).  run.sh builds
 * and runs it; see there for what is asserted.
 *
 * Kernel pairs written by hand in the shape `tfuse -check` emits: the
 * original under the name k__tf_orig, the coarsened kernel as k, and each
 * launch routed through tfuse_rt::Check exactly as the tool writes it.
 * The sites ("check-runtime.cu:NNN") are labels; run.sh greps for them.
 *
 *   scale    float, block mode K=4, correct; launched 3 times (once on a
 *            stream of its own)
 *   axpy     float y += a*x, thread mode K=2, correct; x and y are two
 *            writable arguments in one allocation (one snapshot), and the
 *            update accumulates, so a missing restore would show in the
 *            results the program checks itself
 *   planted  float, block mode K=4: the coarsened kernel is one ulp off at
 *            element 1000 and 1000 off at element 2000
 *   dplanted double, one ulp off at element 77
 *   iplanted int, off by one at element 5
 *   many     12-byte struct elements, z off at every 100th of 1003
 *            elements: 11 mismatches, more than the 10 lines printed
 *   hostarg  correct, but one writable argument is pageable host memory
 *            that the kernel never touches: cannot be snapshot, unchecked
 *   structp  a struct argument by value holding the output pointer
 *            (track_value): out[9] is 10 instead of 9, seen as bytes of
 *            the allocation behind byte 0 of 'p' ('p@0', byte 38)
 *   devacc   a __device__ float array accumulated (+=) (track_symbol):
 *            element 3 gets 2 instead of 1 (a missing restore would give 3)
 *   ptable   a table of 3 row pointers in device memory (track_table):
 *            row 2, element 17 off by one, compared as floats ('tab[2]')
 *   big      a 64 MiB float buffer (16777216 elements): only the last
 *            element differs (1023 against 1024), which the device
 *            comparison must find at the very end of the buffer
 *   repeat   correct, out[i] += 1 over another 64 MiB buffer, launched 200
 *            times: each launch compared on the device (no copy to the
 *            host), each restored (the program checks that out is 200
 *            everywhere it looks); prints how long the 200 launches took
 *   oddbytes a 32-byte __device__ array, tracked through the C functions
 *            as 21 bytes from its start (8-aligned: two 8-byte words and a
 *            5-byte tail) and as 21 bytes from byte 3 (not 8-aligned:
 *            compared byte by byte), named 'd_odd' and 'd_odd+3'; bytes 20
 *            and 23 differ (20 -> 99, 23 -> 102), so the aligned launch
 *            has one mismatch (its last byte) and the other two
 *   lowmem   a 256 MiB float buffer launched while the rest of device
 *            memory is taken, but for 1.5 times the buffer: the snapshot
 *            fits, a device copy of what the original wrote does not, so
 *            that copy goes to the host as before the device comparison;
 *            elements 12345 and 67108863 (the last) differ
 *
 * The program checks the results of scale, axpy and repeat (which must be
 * the same with and without TFUSE_CHECK) and prints "check-runtime-program:
 * results OK" (exit 0) or "... results WRONG ..." (exit 1).
 */
#include <tfuse/prelude.h>
#include <tfuse/check.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "check-runtime-program: %s: %s\n", #call,                       \
                   cudaGetErrorString(err_));                                              \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

/* ---- kernel pairs --------------------------------------------------------- */

/* Block mode, K = 4: logical block blockIdx.x*4 + r, r < 4, inside the
 * original grid extent. */
#define FOR_LOGICAL_BLOCKS(b)                                                              \
  for (unsigned int r_ = 0, b = blockIdx.x * 4; r_ < 4 && b < __tf_grid_x; r_++, b++)

__global__ void scale__tf_orig(const float *in, float *out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}
__global__ void scale(unsigned int __tf_grid_x, const float *in, float *out, float a, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = a * in[i];
  }
}

/* Thread mode, K = 2, stride mapping: logical thread threadIdx.x + r*blockDim.x. */
__global__ void axpy__tf_orig(float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}
__global__ void axpy(float *x, float *y, float a, int n) {
  for (unsigned int r = 0; r < 2; r++) {
    int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x + r * blockDim.x;
    if (i < n)
      y[i] += a * x[i];
  }
}

__global__ void planted__tf_orig(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f + 1.0f;
}
__global__ void planted(unsigned int __tf_grid_x, const float *in, float *out, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n) {
      float v = in[i] * 2.0f + 1.0f;
      if (i == 1000)
        v = __int_as_float(__float_as_int(v) + 1); /* one ulp up (v > 0) */
      if (i == 2000)
        v += 1000.0f; /* a lot */
      out[i] = v;
    }
  }
}

__global__ void dplanted__tf_orig(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 3.0;
}
__global__ void dplanted(unsigned int __tf_grid_x, const double *in, double *out, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n) {
      double v = in[i] * 3.0;
      if (i == 77)
        v = __longlong_as_double(__double_as_longlong(v) + 1); /* one ulp up */
      out[i] = v;
    }
  }
}

__global__ void iplanted__tf_orig(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 3 * i;
}
__global__ void iplanted(unsigned int __tf_grid_x, int *out, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = 3 * i + (i == 5);
  }
}

struct Vec3 {
  float x, y, z;
};
__global__ void many__tf_orig(Vec3 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Vec3 v = {(float)i, 1.0f, 2.0f};
    out[i] = v;
  }
}
__global__ void many(unsigned int __tf_grid_x, Vec3 *out, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n) {
      Vec3 v = {(float)i, 1.0f, i % 100 == 0 ? 3.0f : 2.0f};
      out[i] = v;
    }
  }
}

__global__ void hostarg__tf_orig(float *out, float *scratch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.5f * i;
}
__global__ void hostarg(unsigned int __tf_grid_x, float *out, float *scratch, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = 0.5f * i;
  }
}

struct Params {
  float *out; /* byte 0 */
  int n;
};
__global__ void structp__tf_orig(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.out[i] = (float)i;
}
__global__ void structp(unsigned int __tf_grid_x, Params p) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < p.n)
      p.out[i] = (float)(i + (i == 9));
  }
}

__device__ float d_acc[8];
__global__ void devacc__tf_orig(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 8 && i < n)
    d_acc[i] += 1.0f;
}
__global__ void devacc(unsigned int __tf_grid_x, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < 8 && i < n)
      d_acc[i] += i == 3 ? 2.0f : 1.0f;
  }
}

__global__ void ptable__tf_orig(float *const *tab, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < 3; j++)
      tab[j][i] = (float)(1000 * j + i);
}
__global__ void ptable(unsigned int __tf_grid_x, float *const *tab, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      for (int j = 0; j < 3; j++)
        tab[j][i] = (float)(1000 * j + i + (j == 2 && i == 17));
  }
}

/* big and lowmem: out[i] = i % 1024, the coarsened kernel one more at the
 * last element (and lowmem at element 12345 too). */
__global__ void big__tf_orig(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (float)(i % 1024);
}
__global__ void big(unsigned int __tf_grid_x, float *out, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = (float)(i % 1024 + (i == n - 1));
  }
}
__global__ void lowmem__tf_orig(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (float)(i % 1024);
}
__global__ void lowmem(unsigned int __tf_grid_x, float *out, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] = (float)(i % 1024 + (i == 12345 || i == n - 1));
  }
}

__global__ void repeat__tf_orig(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += 1.0f;
}
__global__ void repeat(unsigned int __tf_grid_x, float *out, int n) {
  FOR_LOGICAL_BLOCKS(b) {
    int i = b * blockDim.x + threadIdx.x;
    if (i < n)
      out[i] += 1.0f;
  }
}

__device__ __align__(8) unsigned char d_odd[32];
__global__ void oddbytes__tf_orig(void) {
  int i = threadIdx.x;
  if (i < 32)
    d_odd[i] = (unsigned char)i;
}
__global__ void oddbytes(void) {
  int i = threadIdx.x;
  if (i < 32)
    d_odd[i] = (unsigned char)(i + (i == 20 || i == 23 ? 79 : 0));
}

/* ---- the program ---------------------------------------------------------- */

int main(void) {
  const int n = 100003; /* 391 blocks of 256: not a multiple of 4 */
  const int n3 = 1003;
  const dim3 block(256);
  const dim3 grid((n + 255) / 256);
  const dim3 grid3((n3 + 255) / 256);

  float *h = (float *)std::malloc(n * sizeof(float));
  double *hd = (double *)std::malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    h[i] = (float)(i % 1000) * 0.25f + 0.5f;
    hd[i] = i * 0.5 + 0.25;
  }
  float *in, *out, *xy, *out2, *host_scratch;
  double *din, *dout;
  int *iout;
  Vec3 *vout;
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&xy, 2 * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out2, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&iout, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&vout, n3 * sizeof(Vec3)));
  host_scratch = (float *)std::malloc(64 * sizeof(float)); /* pageable */
  CUDA_CHECK(cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(xy, h, n * sizeof(float), cudaMemcpyHostToDevice));     /* x */
  CUDA_CHECK(cudaMemcpy(xy + n, h, n * sizeof(float), cudaMemcpyHostToDevice)); /* y */
  CUDA_CHECK(cudaMemcpy(din, hd, n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(out, 0xff, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(out2, 0xff, n * sizeof(float)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  /* scale, three launches: scale<<<grid, block>>>(in, out, 2.0f, n) twice,
   * then scale<<<grid, block, 0, stream>>>(in, out2, 3.0f, n). */
  for (int rep = 0; rep < 2; rep++) {
    { const dim3 __tf_grid = (grid);
      if (::tfuse_rt::check_on()) {
        const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
        auto __tf_a0 = (in); auto __tf_a1 = (out); auto __tf_a2 = (2.0f); auto __tf_a3 = (n);
        ::tfuse_rt::Check __tf_check("scale", "check-runtime.cu:101", __tf_stream);
        __tf_check.track(__tf_a0, "in");
        __tf_check.track(__tf_a1, "out");
        scale__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2, __tf_a3);
        __tf_check.original_done();
        scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1, __tf_a2, __tf_a3);
        __tf_check.coarsened_done();
      } else {
        scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), in, out, 2.0f, n);
      }
    }
  }
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (stream);
      auto __tf_a0 = (in); auto __tf_a1 = (out2); auto __tf_a2 = (3.0f); auto __tf_a3 = (n);
      ::tfuse_rt::Check __tf_check("scale", "check-runtime.cu:102", __tf_stream);
      __tf_check.track(__tf_a0, "in");
      __tf_check.track(__tf_a1, "out");
      scale__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2, __tf_a3);
      __tf_check.original_done();
      scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1, __tf_a2, __tf_a3);
      __tf_check.coarsened_done();
    } else {
      scale<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block, 0, stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), in, out2, 3.0f, n);
    }
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));

  /* axpy<<<grid, block>>>(xy, xy + n, 0.5f, n): thread mode. */
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (xy); auto __tf_a1 = (xy + n); auto __tf_a2 = (0.5f); auto __tf_a3 = (n);
      ::tfuse_rt::Check __tf_check("axpy", "check-runtime.cu:103", __tf_stream);
      __tf_check.track(__tf_a0, "x");
      __tf_check.track(__tf_a1, "y");
      axpy__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2, __tf_a3);
      __tf_check.original_done();
      axpy<<<__tf_grid, ::tfuse_rt::coarsen_block(__tf_block, 0, 2u, "axpy", "check-runtime.cu:103"), __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2, __tf_a3);
      __tf_check.coarsened_done();
    } else {
      axpy<<<__tf_grid, ::tfuse_rt::coarsen_block(block, 0, 2u, "axpy", "check-runtime.cu:103")>>>(xy, xy + n, 0.5f, n);
    }
  }

  /* planted<<<grid, block>>>(in, out, n) */
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (in); auto __tf_a1 = (out); auto __tf_a2 = (n);
      ::tfuse_rt::Check __tf_check("planted", "check-runtime.cu:104", __tf_stream);
      __tf_check.track(__tf_a0, "in");
      __tf_check.track(__tf_a1, "out");
      planted__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2);
      __tf_check.original_done();
      planted<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1, __tf_a2);
      __tf_check.coarsened_done();
    } else {
      planted<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), in, out, n);
    }
  }

  /* dplanted<<<grid, block>>>(din, dout, n) */
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (din); auto __tf_a1 = (dout); auto __tf_a2 = (n);
      ::tfuse_rt::Check __tf_check("dplanted", "check-runtime.cu:105", __tf_stream);
      __tf_check.track(__tf_a0, "in");
      __tf_check.track(__tf_a1, "out");
      dplanted__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2);
      __tf_check.original_done();
      dplanted<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1, __tf_a2);
      __tf_check.coarsened_done();
    } else {
      dplanted<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), din, dout, n);
    }
  }

  /* iplanted<<<grid, block>>>(iout, n) */
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (iout); auto __tf_a1 = (n);
      ::tfuse_rt::Check __tf_check("iplanted", "check-runtime.cu:106", __tf_stream);
      __tf_check.track(__tf_a0, "out");
      iplanted__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1);
      __tf_check.original_done();
      iplanted<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1);
      __tf_check.coarsened_done();
    } else {
      iplanted<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), iout, n);
    }
  }

  /* many<<<grid3, block>>>(vout, n3) */
  { const dim3 __tf_grid = (grid3);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (vout); auto __tf_a1 = (n3);
      ::tfuse_rt::Check __tf_check("many", "check-runtime.cu:107", __tf_stream);
      __tf_check.track(__tf_a0, "out");
      many__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1);
      __tf_check.original_done();
      many<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1);
      __tf_check.coarsened_done();
    } else {
      many<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), vout, n3);
    }
  }

  /* hostarg<<<grid, block>>>(out, host_scratch, n) */
  { const dim3 __tf_grid = (grid);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (out); auto __tf_a1 = (host_scratch); auto __tf_a2 = (n);
      ::tfuse_rt::Check __tf_check("hostarg", "check-runtime.cu:108", __tf_stream);
      __tf_check.track(__tf_a0, "out");
      __tf_check.track(__tf_a1, "scratch");
      hostarg__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1, __tf_a2);
      __tf_check.original_done();
      hostarg<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1, __tf_a2);
      __tf_check.coarsened_done();
    } else {
      hostarg<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), out, host_scratch, n);
    }
  }
  /* structp<<<grid3, block>>>(p): the output pointer inside a struct. */
  Params prm;
  CUDA_CHECK(cudaMalloc(&prm.out, n3 * sizeof(float)));
  prm.n = n3;
  { const dim3 __tf_grid = (grid3);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (prm);
      ::tfuse_rt::Check __tf_check("structp", "check-runtime.cu:109", __tf_stream);
      __tf_check.track_value(__tf_a0, "p");
      structp__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0);
      __tf_check.original_done();
      structp<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0);
      __tf_check.coarsened_done();
    } else {
      structp<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), prm);
    }
  }

  /* devacc<<<grid3, block>>>(n3): writes the __device__ array d_acc. */
  { const dim3 __tf_grid = (grid3);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      ::tfuse_rt::Check __tf_check("devacc", "check-runtime.cu:110", __tf_stream);
      __tf_check.track_symbol(::d_acc, "d_acc");
      devacc__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(n3);
      __tf_check.original_done();
      devacc<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), n3);
      __tf_check.coarsened_done();
    } else {
      devacc<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), n3);
    }
  }

  /* ptable<<<grid3, block>>>(tab, n3): rows reached through a device table. */
  float *rows[3], **tab;
  for (int j = 0; j < 3; j++)
    CUDA_CHECK(cudaMalloc(&rows[j], n3 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&tab, sizeof rows));
  CUDA_CHECK(cudaMemcpy(tab, rows, sizeof rows, cudaMemcpyHostToDevice));
  { const dim3 __tf_grid = (grid3);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      ::tfuse_rt::Check __tf_check("ptable", "check-runtime.cu:111", __tf_stream);
      __tf_check.track_table(tab, "tab");
      ptable__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(tab, n3);
      __tf_check.original_done();
      ptable<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), tab, n3);
      __tf_check.coarsened_done();
    } else {
      ptable<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), tab, n3);
    }
  }

  /* big<<<gbig, block>>>(bigout, nbig): 64 MiB, the last element differs. */
  const int nbig = 16 << 20; /* floats: 64 MiB */
  const dim3 gbig((nbig + 255) / 256);
  float *bigout, *repout;
  CUDA_CHECK(cudaMalloc(&bigout, (size_t)nbig * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&repout, (size_t)nbig * sizeof(float)));
  CUDA_CHECK(cudaMemset(repout, 0, (size_t)nbig * sizeof(float)));
  { const dim3 __tf_grid = (gbig);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (bigout); auto __tf_a1 = (nbig);
      ::tfuse_rt::Check __tf_check("big", "check-runtime.cu:112", __tf_stream);
      __tf_check.track(__tf_a0, "out");
      big__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1);
      __tf_check.original_done();
      big<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1);
      __tf_check.coarsened_done();
    } else {
      big<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), bigout, nbig);
    }
  }

  /* repeat<<<gbig, block>>>(repout, nbig), 200 times: out[i] += 1. */
  const int nrepeat = 200;
  CUDA_CHECK(cudaDeviceSynchronize());
  auto t0 = std::chrono::steady_clock::now();
  for (int rep = 0; rep < nrepeat; rep++) {
    { const dim3 __tf_grid = (gbig);
      if (::tfuse_rt::check_on()) {
        const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
        auto __tf_a0 = (repout); auto __tf_a1 = (nbig);
        ::tfuse_rt::Check __tf_check("repeat", "check-runtime.cu:113", __tf_stream);
        __tf_check.track(__tf_a0, "out");
        repeat__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1);
        __tf_check.original_done();
        repeat<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1);
        __tf_check.coarsened_done();
      } else {
        repeat<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), repout, nbig);
      }
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  double repeat_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("check-runtime-program: repeat: %d launches over 64 MiB in %.3f s\n", nrepeat, repeat_s);

  /* oddbytes<<<1, 32>>>(): 21 bytes of d_odd from byte 0, then from byte 3,
   * through the C functions (the Check class tracks a whole variable). */
  for (int from = 0; from <= 3; from += 3) {
    if (::tfuse_rt::check_on()) {
      tfuse_check_launch *c = tfuse_check_begin("oddbytes", from ? "check-runtime.cu:115" : "check-runtime.cu:114", 0);
      void *p = 0;
      cudaError_t e = cudaGetSymbolAddress(&p, d_odd);
      tfuse_check_track_symbol(c, (unsigned char *)p + from, 21, e, TFUSE_CHECK_BYTES, 1, 0, TFUSE_CHECK_BYTES, 1,
                               from ? "d_odd+3" : "d_odd");
      oddbytes__tf_orig<<<1, 32>>>();
      tfuse_check_original_done(c);
      oddbytes<<<1, 32>>>();
      tfuse_check_coarsened_done(c);
    } else {
      oddbytes<<<1, 32>>>();
    }
  }

  /* lowmem<<<glow, block>>>(lowout, nlow): 256 MiB while device memory is
   * short: free memory is cut to 1.5 times the buffer for this launch. */
  const int nlow = 64 << 20; /* floats: 256 MiB */
  const size_t lowbytes = (size_t)nlow * sizeof(float);
  const dim3 glow((nlow + 255) / 256);
  float *lowout;
  CUDA_CHECK(cudaMalloc(&lowout, lowbytes));
  size_t freemem = 0, totalmem = 0;
  CUDA_CHECK(cudaMemGetInfo(&freemem, &totalmem));
  void *hog = 0;
  size_t hogbytes = freemem > lowbytes + lowbytes / 2 ? freemem - lowbytes - lowbytes / 2 : 0;
  for (int tries = 0; hogbytes && tries < 16 && cudaMalloc(&hog, hogbytes) != cudaSuccess; tries++) {
    cudaGetLastError();
    hog = 0;
    hogbytes = hogbytes > ((size_t)64 << 20) ? hogbytes - ((size_t)64 << 20) : 0;
  }
  if (!hog) {
    std::printf("check-runtime-program: cannot take device memory for lowmem (%zu bytes free)\n", freemem);
    return 2;
  }
  { const dim3 __tf_grid = (glow);
    if (::tfuse_rt::check_on()) {
      const dim3 __tf_block = (block); const size_t __tf_smem = (0); const cudaStream_t __tf_stream = (0);
      auto __tf_a0 = (lowout); auto __tf_a1 = (nlow);
      ::tfuse_rt::Check __tf_check("lowmem", "check-runtime.cu:116", __tf_stream);
      __tf_check.track(__tf_a0, "out");
      lowmem__tf_orig<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(__tf_a0, __tf_a1);
      __tf_check.original_done();
      lowmem<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), __tf_block, __tf_smem, __tf_stream>>>(::tfuse_rt::grid_extent(__tf_grid, 0), __tf_a0, __tf_a1);
      __tf_check.coarsened_done();
    } else {
      lowmem<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), lowout, nlow);
    }
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(hog));
  /* repeat added 1 per launch, once (the coarsened kernel's), not twice. */
  float rep[3];
  CUDA_CHECK(cudaMemcpy(&rep[0], repout, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&rep[1], repout + nbig / 2 + 7, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&rep[2], repout + nbig - 1, sizeof(float), cudaMemcpyDeviceToHost));
  for (int k = 0; k < 3; k++)
    if (rep[k] != (float)nrepeat) {
      std::printf("check-runtime-program: results WRONG: repeat's out is %g, not %d\n", rep[k], nrepeat);
      return 1;
    }
  /* d_acc holds one accumulation (the coarsened kernel's), not two. */
  float acc[8];
  CUDA_CHECK(cudaMemcpyFromSymbol(acc, d_acc, sizeof acc));
  if (acc[0] != 1.0f || acc[3] != 2.0f) {
    std::printf("check-runtime-program: results WRONG: d_acc[0] %g (want 1), d_acc[3] %g (want 2)\n", acc[0], acc[3]);
    return 1;
  }

  /* The results of the correct pairs, the same with and without checking:
   * out2 = 3*in, y = in + 0.5*in (once, not twice), out = 0.5*i (hostarg). */
  float *r2 = (float *)std::malloc(n * sizeof(float));
  float *ry = (float *)std::malloc(n * sizeof(float));
  float *ro = (float *)std::malloc(n * sizeof(float));
  CUDA_CHECK(cudaMemcpy(r2, out2, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ry, xy + n, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ro, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n && bad < 5; i++) {
    float want2 = 3.0f * h[i], wanty = h[i] + 0.5f * h[i], wanto = 0.5f * i;
    if (std::memcmp(&r2[i], &want2, 4) || std::fabs(ry[i] - wanty) > 1e-6f * std::fabs(wanty) ||
        std::memcmp(&ro[i], &wanto, 4)) {
      std::printf("check-runtime-program: results WRONG at %d: out2 %.9g (want %.9g), y %.9g "
                  "(want %.9g), out %.9g (want %.9g)\n",
                  i, r2[i], want2, ry[i], wanty, ro[i], wanto);
      bad++;
    }
  }
  if (bad)
    return 1;
  std::printf("check-runtime-program: results OK\n");
  return 0;
}
