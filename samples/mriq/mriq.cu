/*
 * mriq: the FHd computation of MRI reconstruction (non-Cartesian k-space
 * to image space): for every voxel n,
 *   rFhD[n] += sum_m  rMu[m] cos(2 pi k_m . x_n) - iMu[m] sin(2 pi k_m . x_n)
 *   iFhD[n] += sum_m  iMu[m] cos(2 pi k_m . x_n) + rMu[m] sin(2 pi k_m . x_n)
 * One thread per voxel, 256 threads per block, a 1D grid.
 *
 * Origin: the "Using Registers" kernel of the MRI-Q case study in
 * seeds/mriq-dcs-thread-fusion.txt (Kirk/Hwu chapter 8): the voxel's
 * coordinates and accumulators live in registers, the k-space samples
 * kx/ky/kz and rMu/iMu are read from global memory. Differences from the
 * seed: cosf/sinf are spelled out, the two final stores are two statements
 * instead of one comma expression, and the host forms rMu/iMu from phi and
 * d as the seed's cmpmu kernel does.
 *
 * Annotation: `#pragma tfuse coarsen` (block mode along x by default).
 * Applies: block mode along x, thread mode along x (K must divide 256).
 *
 * Data and check: samples/common/mriq.h (mriq_run, shared with the
 * hand-merged kernels of bench/mriq_hand.cu). Voxel coordinates in
 * [-0.5, 0.5), k-space coordinates in [-4, 4), phi and d in [-1, 1), all
 * from a fixed-seed LCG; rfhd and ifhd start as LCG values in [-1, 1), so
 * an element the kernel does not write fails the check: CPU reference in
 * double, |gpu - ref| <= 1e-4 * (|initial| + sum_m (|rMu[m]| + |iMu[m]|))
 * per output (relative to the sum of the magnitudes of the terms, since
 * terms of both signs cancel).
 *
 * Usage: mriq [N] [M] [--check] [--check-sample S] [--dump FILE] [--time N]
 *   N                 number of voxels (default 2097152 = 128^3)
 *   M                 number of k-space samples (default 1536)
 *   --check           compare with the CPU reference, print "mriq: PASS" or
 *                     "mriq: FAIL (...)", exit 0 or 1
 *   --check-sample S  compare only S evenly spread voxels (0 = all); by
 *                     default all voxels when the reference takes about a
 *                     second or less, else about a second's worth
 *   --dump FILE       write the raw bytes of rfhd then ifhd (2*N floats)
 *   --time N          one warm-up launch, then N timed launches; prints
 *                     median_ms=<x> (the launches keep accumulating into
 *                     rfhd/ifhd, which does not change their cost)
 *
 * Examples:
 *   nvcc -O3 -arch=sm_90 -o mriq samples/mriq/mriq.cu
 *   nvcc -O3 -arch=sm_90 -use_fast_math -o mriq_fast samples/mriq/mriq.cu
 *                                          # __cosf/__sinf: the seed's
 *                                          # "Hardware Trigonometry" step
 *   ./mriq 100003 512 --check              # odd size: 391 blocks
 *   ./mriq --time 10                       # 2M voxels, 1536 samples
 *   tfuse -factor 8 samples/mriq/mriq.cu -o mriq_k8.cu
 *   tfuse -factor 4 -mode thread -dim x samples/mriq/mriq.cu -o mriq_t4.cu
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#include "../common/harness.h" /* CUDA_CHECK, LCG, options, timing, dump */
#include "../common/mriq.h"    /* PI, FHD_THREADS_PER_BLOCK, mriq_run: data, check, options */

#pragma tfuse coarsen
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

/* The one launch site of cmpfhd: the original grid, ceil(N / 256) blocks. */
static void launch_cmpfhd(void *ctx)
{
    MriqProblem *p = (MriqProblem *)ctx;
    int ntpb = FHD_THREADS_PER_BLOCK;
    int nblks = (p->N + ntpb - 1) / ntpb;
    cmpfhd<<<nblks, ntpb>>>(p->rmu, p->imu, p->rfhd, p->ifhd, p->kx, p->ky, p->kz,
                            p->x, p->y, p->z, p->N, p->M);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    return mriq_run(argc, argv, "mriq", launch_cmpfhd);
}
