/*
 * mriq_hand: the MRI-Q FHd kernel merged by hand, K voxels per thread, on
 * the host side of samples/mriq (samples/common/mriq.h: same data, check,
 * --dump and --time), so that tfuse's coarsened samples/mriq can be timed
 * beside what a CUDA programmer would write (bench/mriq-hand.sh).
 *
 *   nvcc -O3 -arch=sm_90 -DK=8 -o mriq_hand bench/mriq_hand.cu
 *   nvcc -O3 -arch=sm_90 -DK=8 -use_fast_math -o mriq_hand_fast bench/mriq_hand.cu
 *   ./mriq_hand [N] [M] [--check] [--check-sample S] [--dump FILE] [--time N]
 *
 * K = 1 is samples/mriq's cmpfhd, verbatim. K > 1 merges K consecutive
 * blocks of 256 threads into one, as tfuse's block mode along x does: copy
 * r of physical block b handles voxel (b * K + r) * 256 + threadIdx.x, so
 * the outputs compare byte for byte with tfuse's K-block merge (in the
 * -fmad=false builds). The k-space sample m is loaded once per iteration
 * into registers and feeds the K voxels, each with its own coordinates
 * and accumulators in registers (arrays indexed only by unrolled loops).
 * A copy past the last voxel computes on zeros and does not store.
 *
 * Accurate form: cosf/sinf as written. Fast form: the same file built with
 * -use_fast_math (cosf/sinf become __cosf/__sinf, the seed's "Hardware
 * Trigonometry" step), like samples/mriq built with -use_fast_math, so the
 * two programs differ only in how the voxels are merged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#include "../samples/common/harness.h"
#include "../samples/common/mriq.h"

#ifndef K
#define K 8
#endif

#if K == 1
__global__ void cmpfhd(const float *rmu, const float *imu, float *rfhd, float *ifhd,
                       const float *kx, const float *ky, const float *kz,
                       const float *x, const float *y, const float *z, int nn, int M)
{
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    float e, c, s;

    if (n < nn) {
        float xn = x[n], yn = y[n], zn = z[n];
        float rfhdn = rfhd[n], ifhdn = ifhd[n];
        for (int m = 0; m < M; m++) {
            e = 2.0f * PI * (kx[m] * xn + ky[m] * yn + kz[m] * zn);
            c = cosf(e);
            s = sinf(e);
            rfhdn += rmu[m] * c - imu[m] * s;
            ifhdn += imu[m] * c + rmu[m] * s;
        }
        rfhd[n] = rfhdn;
        ifhd[n] = ifhdn;
    }
}
#else
__global__ void cmpfhd(const float *rmu, const float *imu, float *rfhd, float *ifhd,
                       const float *kx, const float *ky, const float *kz,
                       const float *x, const float *y, const float *z, int nn, int M)
{
    int n0 = blockIdx.x * (K * blockDim.x) + threadIdx.x;
    float xn[K], yn[K], zn[K], rfhdn[K], ifhdn[K];
#pragma unroll
    for (int r = 0; r < K; r++) {
        int n = n0 + r * blockDim.x;
        bool in = n < nn;
        xn[r] = in ? x[n] : 0.0f;
        yn[r] = in ? y[n] : 0.0f;
        zn[r] = in ? z[n] : 0.0f;
        rfhdn[r] = in ? rfhd[n] : 0.0f;
        ifhdn[r] = in ? ifhd[n] : 0.0f;
    }
    for (int m = 0; m < M; m++) {
        float kxm = kx[m], kym = ky[m], kzm = kz[m], rmum = rmu[m], imum = imu[m];
#pragma unroll
        for (int r = 0; r < K; r++) {
            float e = 2.0f * PI * (kxm * xn[r] + kym * yn[r] + kzm * zn[r]);
            float c = cosf(e);
            float s = sinf(e);
            rfhdn[r] += rmum * c - imum * s;
            ifhdn[r] += imum * c + rmum * s;
        }
    }
#pragma unroll
    for (int r = 0; r < K; r++) {
        int n = n0 + r * blockDim.x;
        if (n < nn) {
            rfhd[n] = rfhdn[r];
            ifhd[n] = ifhdn[r];
        }
    }
}
#endif

/* The original grid, ceil(N / 256) blocks of 256, merged K at a time. */
static void launch_cmpfhd(void *ctx)
{
    MriqProblem *p = (MriqProblem *)ctx;
    int ntpb = FHD_THREADS_PER_BLOCK;
    int nblks = (p->N + ntpb - 1) / ntpb;
    cmpfhd<<<(nblks + K - 1) / K, ntpb>>>(p->rmu, p->imu, p->rfhd, p->ifhd, p->kx, p->ky, p->kz,
                                          p->x, p->y, p->z, p->N, p->M);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    return mriq_run(argc, argv, "mriq_hand", launch_cmpfhd);
}
