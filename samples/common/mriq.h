/*
 * mriq.h: the host side of the MRI-Q programs (samples/mriq and the
 * hand-merged kernels of bench/mriq_hand.cu), so that every build of the
 * FHd kernel runs on the same data with the same check.
 *
 * - PI, FHD_THREADS_PER_BLOCK (256, the seed's block size).
 * - MriqProblem: the sizes and the device buffers a launch function reads.
 * - mriq_run(argc, argv, name, launch): the whole program around the
 *   launch function: options `[N] [M] [--check] [--check-sample S]
 *   [--dump FILE] [--time N]` (defaults N = 2097152 voxels, M = 1536
 *   samples), the data, one launch, the check, --dump (rfhd then ifhd),
 *   --time (median_ms=<x>).
 *
 * Data: voxel coordinates in [-0.5, 0.5), k-space coordinates in [-4, 4),
 * phi and d in [-1, 1), all from a fixed-seed LCG; rMu/iMu formed from phi
 * and d as the seed's cmpmu kernel does. rfhd and ifhd are read and
 * written: they start as LCG values in [-1, 1) (uploaded before the run),
 * so an element the kernel does not write keeps a value that fails the
 * check.
 *
 * Check: CPU reference in double, |gpu - ref| <= 1e-4 * (|initial| +
 * sum_m (|rMu[m]| + |iMu[m]|)) per output (relative to the sum of the
 * magnitudes of the terms, since terms of both signs cancel).
 *
 * The kernels and their launches stay in the program files, where tfuse
 * rewrites them; mriq_run calls the launch through a pointer. Include after
 * harness.h.
 */
#ifndef TFUSE_SAMPLES_MRIQ_H
#define TFUSE_SAMPLES_MRIQ_H

#include <math.h>

#define PI 3.14159265358979323846f
#define FHD_THREADS_PER_BLOCK 256 /* the seed's block size: the original grid is ceil(N / 256) blocks */

typedef struct {
    int N, M;
    float *rmu, *imu, *rfhd, *ifhd, *kx, *ky, *kz, *x, *y, *z; /* device */
} MriqProblem;

static float *mriq_to_device(const float *h, size_t count)
{
    float *d;
    CUDA_CHECK(cudaMalloc((void **)&d, sizeof(float) * count));
    CUDA_CHECK(cudaMemcpy(d, h, sizeof(float) * count, cudaMemcpyHostToDevice));
    return d;
}

static int mriq_run(int argc, char **argv, const char *name, void (*launch)(void *))
{
    char usage[160];
    snprintf(usage, sizeof usage, "%s [N] [M] [--check] [--check-sample S] [--dump FILE] [--time N]", name);
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
    printf("%s: N=%d M=%d grid=%d block=%d\n", name, N, M,
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

    MriqProblem p;
    p.N = N;
    p.M = M;
    p.kx = mriq_to_device(kx, M);
    p.ky = mriq_to_device(ky, M);
    p.kz = mriq_to_device(kz, M);
    p.rmu = mriq_to_device(rmu, M);
    p.imu = mriq_to_device(imu, M);
    p.x = mriq_to_device(x, N);
    p.y = mriq_to_device(y, N);
    p.z = mriq_to_device(z, N);
    p.rfhd = mriq_to_device(rfhd0, N);
    p.ifhd = mriq_to_device(ifhd0, N);
    launch(&p);
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
        printf("%s: checked %ld of %d voxels, tolerance 1e-4 relative to sum |terms|, "
               "max %.3g\n", name, count, N, max_ratio);
        if (bad) {
            printf("%s: FAIL (%ld mismatches; first at %ld: got (%.9g, %.9g) want (%.9g, %.9g))\n",
                   name, bad, first, rfhd[first], ifhd[first], first_rwant, first_iwant);
            status = 1;
        } else {
            printf("%s: PASS\n", name);
        }
    }
    if (opt.dump)
        dump_file(opt.dump, rfhd, nbytes, ifhd, nbytes);
    if (opt.time)
        time_launches(launch, &p, opt.time);

    float *dev[] = {p.kx, p.ky, p.kz, p.rmu, p.imu, p.x, p.y, p.z, p.rfhd, p.ifhd};
    for (int d = 0; d < (int)(sizeof(dev) / sizeof(dev[0])); d++)
        CUDA_CHECK(cudaFree(dev[d]));
    float *host[] = {kx, ky, kz, rmu, imu, x, y, z, rfhd0, ifhd0, rfhd, ifhd};
    for (int h = 0; h < (int)(sizeof(host) / sizeof(host[0])); h++)
        free(host[h]);
    return status;
}

#endif
