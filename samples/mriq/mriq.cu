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
 * Data: voxel coordinates in [-0.5, 0.5), k-space coordinates in [-4, 4),
 * phi and d in [-1, 1), all from a fixed-seed LCG. rfhd and ifhd are read
 * and written: they start as LCG values in [-1, 1) (uploaded before the
 * run), so an element the kernel does not write keeps a value that fails
 * the check.
 *
 * Check: CPU reference in double, |gpu - ref| <= 1e-4 * (|initial| +
 * sum_m (|rMu[m]| + |iMu[m]|)) per output (relative to the sum of the
 * magnitudes of the terms, since terms of both signs cancel).
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

#define PI 3.14159265358979323846f
#define FHD_THREADS_PER_BLOCK 256

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

typedef struct {
    int N, M;
    float *rmu, *imu, *rfhd, *ifhd, *kx, *ky, *kz, *x, *y, *z; /* device */
} Problem;

/* The one launch site of cmpfhd: the original grid, ceil(N / 256) blocks. */
static void launch_cmpfhd(void *ctx)
{
    Problem *p = (Problem *)ctx;
    int ntpb = FHD_THREADS_PER_BLOCK;
    int nblks = (p->N + ntpb - 1) / ntpb;
    cmpfhd<<<nblks, ntpb>>>(p->rmu, p->imu, p->rfhd, p->ifhd, p->kx, p->ky, p->kz,
                            p->x, p->y, p->z, p->N, p->M);
    CUDA_CHECK(cudaGetLastError());
}

static float *to_device(const float *h, size_t count)
{
    float *d;
    CUDA_CHECK(cudaMalloc((void **)&d, sizeof(float) * count));
    CUDA_CHECK(cudaMemcpy(d, h, sizeof(float) * count, cudaMemcpyHostToDevice));
    return d;
}

int main(int argc, char **argv)
{
    const char *usage =
        "mriq [N] [M] [--check] [--check-sample S] [--dump FILE] [--time N]";
    Options opt;
    opt.pos[0] = 2097152;
    opt.pos[1] = 1536;
    parse_options(argc, argv, &opt, 2, usage);
    if (opt.pos[0] > 0x7fffffffL - FHD_THREADS_PER_BLOCK || opt.pos[1] > 0x7fffffffL) {
        fprintf(stderr, "problem too large\n");
        return 2;
    }
    int N = (int)opt.pos[0], M = (int)opt.pos[1];
    size_t nbytes = sizeof(float) * (size_t)N;
    printf("mriq: N=%d M=%d grid=%d block=%d\n", N, M,
           (N + FHD_THREADS_PER_BLOCK - 1) / FHD_THREADS_PER_BLOCK, FHD_THREADS_PER_BLOCK);

    float *kx = (float *)host_alloc(sizeof(float) * M);
    float *ky = (float *)host_alloc(sizeof(float) * M);
    float *kz = (float *)host_alloc(sizeof(float) * M);
    float *rmu = (float *)host_alloc(sizeof(float) * M);
    float *imu = (float *)host_alloc(sizeof(float) * M);
    float *x = (float *)host_alloc(nbytes);
    float *y = (float *)host_alloc(nbytes);
    float *z = (float *)host_alloc(nbytes);
    float *rfhd0 = (float *)host_alloc(nbytes);
    float *ifhd0 = (float *)host_alloc(nbytes);
    float *rfhd = (float *)host_alloc(nbytes);
    float *ifhd = (float *)host_alloc(nbytes);
    lcg_seed(99u);
    for (int m = 0; m < M; m++) {
        kx[m] = lcg_uniform(-4.0f, 4.0f);
        ky[m] = lcg_uniform(-4.0f, 4.0f);
        kz[m] = lcg_uniform(-4.0f, 4.0f);
        float rphi = lcg_uniform(-1.0f, 1.0f), iphi = lcg_uniform(-1.0f, 1.0f);
        float rd = lcg_uniform(-1.0f, 1.0f), id = lcg_uniform(-1.0f, 1.0f);
        rmu[m] = rphi * rd + iphi * id; /* the seed's cmpmu */
        imu[m] = rphi * id - iphi * rd;
    }
    for (int n = 0; n < N; n++) {
        x[n] = lcg_uniform(-0.5f, 0.5f);
        y[n] = lcg_uniform(-0.5f, 0.5f);
        z[n] = lcg_uniform(-0.5f, 0.5f);
        rfhd0[n] = lcg_uniform(-1.0f, 1.0f);
        ifhd0[n] = lcg_uniform(-1.0f, 1.0f);
    }

    Problem p;
    p.N = N;
    p.M = M;
    p.kx = to_device(kx, M);
    p.ky = to_device(ky, M);
    p.kz = to_device(kz, M);
    p.rmu = to_device(rmu, M);
    p.imu = to_device(imu, M);
    p.x = to_device(x, N);
    p.y = to_device(y, N);
    p.z = to_device(z, N);
    p.rfhd = to_device(rfhd0, N);
    p.ifhd = to_device(ifhd0, N);
    launch_cmpfhd(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(rfhd, p.rfhd, nbytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(ifhd, p.ifhd, nbytes, cudaMemcpyDeviceToHost));

    int status = 0;
    if (opt.check) {
        const double pi = 3.14159265358979323846;
        double mu_scale = 0.0;
        for (int m = 0; m < M; m++)
            mu_scale += fabs((double)rmu[m]) + fabs((double)imu[m]);
        long count = check_count(N, 15.0 * M + 1.0, opt.check_sample);
        long bad = 0, first = -1;
        double first_rwant = 0.0, first_iwant = 0.0, max_ratio = 0.0;
        for (long j = 0; j < count; j++) {
            long n = check_index(j, count, N);
            double rwant = rfhd0[n], iwant = ifhd0[n];
            for (int m = 0; m < M; m++) {
                double e = 2.0 * pi * ((double)kx[m] * x[n] + (double)ky[m] * y[n] +
                                       (double)kz[m] * z[n]);
                double c = cos(e), s = sin(e);
                rwant += rmu[m] * c - imu[m] * s;
                iwant += imu[m] * c + rmu[m] * s;
            }
            double rratio = fabs((double)rfhd[n] - rwant) / (fabs((double)rfhd0[n]) + mu_scale);
            double iratio = fabs((double)ifhd[n] - iwant) / (fabs((double)ifhd0[n]) + mu_scale);
            if (!(rratio <= 1e-4 && iratio <= 1e-4)) { /* also catches NaN */
                if (first < 0) {
                    first = n;
                    first_rwant = rwant;
                    first_iwant = iwant;
                }
                bad++;
            }
            if (rratio > max_ratio || rratio != rratio)
                max_ratio = rratio;
            if (iratio > max_ratio || iratio != iratio)
                max_ratio = iratio;
        }
        printf("mriq: checked %ld of %d voxels, tolerance 1e-4 relative to sum |terms|, "
               "max %.3g\n", count, N, max_ratio);
        if (bad) {
            printf("mriq: FAIL (%ld mismatches; first at %ld: got (%.9g, %.9g) want (%.9g, %.9g))\n",
                   bad, first, rfhd[first], ifhd[first], first_rwant, first_iwant);
            status = 1;
        } else {
            printf("mriq: PASS\n");
        }
    }
    if (opt.dump)
        dump_file(opt.dump, rfhd, nbytes, ifhd, nbytes);
    if (opt.time)
        time_launches(launch_cmpfhd, &p, opt.time);

    float *dev[] = {p.kx, p.ky, p.kz, p.rmu, p.imu, p.x, p.y, p.z, p.rfhd, p.ifhd};
    for (int d = 0; d < (int)(sizeof(dev) / sizeof(dev[0])); d++)
        CUDA_CHECK(cudaFree(dev[d]));
    float *host[] = {kx, ky, kz, rmu, imu, x, y, z, rfhd0, ifhd0, rfhd, ifhd};
    for (int h = 0; h < (int)(sizeof(host) / sizeof(host[0])); h++)
        free(host[h]);
    return status;
}
