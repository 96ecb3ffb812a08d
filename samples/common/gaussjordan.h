/*
 * gaussjordan.h: the host side shared by the Gauss-Jordan samples
 (samples/gaussjordan: in-place inversion, race-free, two barriers per
 * step; samples/gaussjordan_ws: Volkov's kernel as in the seed, reduction
 * to the identity, warp-synchronous, one barrier per step). Both eliminate
 * many 32x32 matrices, one per 32x32 block, without pivoting.
 *
 * - gj_fill(in, systems): symmetric matrices, off-diagonal entries in
 *   [-1, 1), diagonal in [33, 34), from the fixed-seed LCG (strictly
 *   diagonally dominant: elimination without pivoting is stable).
 * - gj_check(name, in, out, systems, sample): per checked matrix, the same
 *   in-place inversion on the CPU in double, |gpu - ref| <= 1e-4 *
 *   max|ref|, and max |A * out - I| <= 1e-4; prints PASS or FAIL, returns
 *   0 or 1.
 * - gj_check_identity(name, out, systems, sample): max |out - I| <= 1e-4
 *   per checked matrix (what elimination without a right-hand side leaves).
 * - GjProblem, gj_run(argc, argv, name, launch, check): the whole program
 *   around the sample's launch function (options, data, one launch, the
 *   check, --dump, --time).
 *
 * The kernels and their launches stay in the sample files, where tfuse
 * rewrites them; gj_run calls the launch through a pointer. Include after
 * harness.h.
 */
#ifndef TFUSE_SAMPLES_GAUSSJORDAN_H
#define TFUSE_SAMPLES_GAUSSJORDAN_H

#include <math.h>

#define NDIM 32

/* Textbook in-place Gauss-Jordan inversion without pivoting, in double:
 * for each i, scale row i by 1/pivot (its diagonal becoming 1/pivot), then
 * subtract multiple A[y][i] of it from every other row y (column i
 * becoming -A[y][i]/pivot). */
static void gj_invert_ref(double a[NDIM][NDIM])
{
    for (int i = 0; i < NDIM; i++) {
        double pivot = a[i][i];
        for (int x = 0; x < NDIM; x++)
            a[i][x] = (x == i ? 1.0 : a[i][x]) / pivot;
        for (int y = 0; y < NDIM; y++) {
            if (y == i)
                continue;
            double f = a[y][i];
            for (int x = 0; x < NDIM; x++)
                a[y][x] = (x == i ? 0.0 : a[y][x]) - f * a[i][x];
        }
    }
}

static void gj_fill(float *in, int systems)
{
    lcg_seed(31337u);
    for (int p = 0; p < systems; p++) {
        float *m = in + (size_t)p * NDIM * NDIM;
        for (int y = 0; y < NDIM; y++) {
            m[NDIM * y + y] = lcg_uniform(33.0f, 34.0f);
            for (int x = y + 1; x < NDIM; x++)
                m[NDIM * y + x] = m[NDIM * x + y] = lcg_uniform(-1.0f, 1.0f);
        }
    }
}

static int gj_check(const char *name, const float *in, const float *out, int systems, long sample)
{
    int status = 0;
    long count = check_count(systems, 2.0 * NDIM * NDIM * NDIM * 2, sample);
    long bad = 0, first = -1;
    double max_rel = 0.0, max_res = 0.0;
    static double ref[NDIM][NDIM];
    for (long j = 0; j < count; j++) {
        long s = check_index(j, count, systems);
        const float *a = in + (size_t)s * NDIM * NDIM;
        const float *g = out + (size_t)s * NDIM * NDIM;
        double amax = 0.0, err = 0.0, res = 0.0;
        for (int y = 0; y < NDIM; y++)
            for (int x = 0; x < NDIM; x++)
                ref[y][x] = a[NDIM * y + x];
        gj_invert_ref(ref);
        for (int y = 0; y < NDIM; y++)
            for (int x = 0; x < NDIM; x++) {
                double d = fabs((double)g[NDIM * y + x] - ref[y][x]);
                if (fabs(ref[y][x]) > amax)
                    amax = fabs(ref[y][x]);
                if (d > err || d != d)
                    err = d;
            }
        /* Residual of the GPU result: A * out - I. */
        for (int y = 0; y < NDIM; y++)
            for (int x = 0; x < NDIM; x++) {
                double sum = (y == x) ? -1.0 : 0.0;
                for (int k = 0; k < NDIM; k++)
                    sum += (double)a[NDIM * y + k] * g[NDIM * k + x];
                if (fabs(sum) > res || sum != sum)
                    res = fabs(sum);
            }
        double rel = err / amax;
        if (!(rel <= 1e-4 && res <= 1e-4)) { /* also catches NaN */
            if (first < 0)
                first = s;
            bad++;
        }
        if (rel > max_rel || rel != rel)
            max_rel = rel;
        if (res > max_res || res != res)
            max_res = res;
    }
    printf("%s: checked %ld of %d matrices, tolerance 1e-4 relative to max|inverse| "
           "(max %.3g), residual |A*out - I| <= 1e-4 (max %.3g)\n",
           name, count, systems, max_rel, max_res);
    if (bad) {
        printf("%s: FAIL (%ld bad matrices; first is matrix %ld)\n", name, bad, first);
        status = 1;
    } else {
        printf("%s: PASS\n", name);
    }
    return status;
}

static int gj_check_identity(const char *name, const float *out, int systems, long sample)
{
    long count = check_count(systems, 2.0 * NDIM * NDIM, sample);
    long bad = 0, first = -1;
    double max_err = 0.0;
    for (long j = 0; j < count; j++) {
        long s = check_index(j, count, systems);
        const float *g = out + (size_t)s * NDIM * NDIM;
        double err = 0.0;
        for (int y = 0; y < NDIM; y++)
            for (int x = 0; x < NDIM; x++) {
                double d = fabs((double)g[NDIM * y + x] - (x == y ? 1.0 : 0.0));
                if (d > err || d != d)
                    err = d;
            }
        if (!(err <= 1e-4)) { /* also catches NaN */
            if (first < 0)
                first = s;
            bad++;
        }
        if (err > max_err || err != err)
            max_err = err;
    }
    printf("%s: checked %ld of %d matrices, |out - I| <= 1e-4 (max %.3g)\n", name, count, systems, max_err);
    if (bad) {
        printf("%s: FAIL (%ld bad matrices; first is matrix %ld)\n", name, bad, first);
        return 1;
    }
    printf("%s: PASS\n", name);
    return 0;
}

typedef struct {
    int systems;
    float *in, *out; /* device */
} GjProblem;

typedef enum { GJ_CHECK_INVERSE, GJ_CHECK_IDENTITY } GjCheck;

/* The program: [systems] [--check] [--check-sample S] [--dump FILE]
 * [--time N]; launch(GjProblem *) runs the sample's kernel once. */
static int gj_run(int argc, char **argv, const char *name, void (*launch)(void *), GjCheck check)
{
    char usage[160];
    snprintf(usage, sizeof usage, "%s [systems] [--check] [--check-sample S] [--dump FILE] [--time N]", name);
    Options opt;
    opt.pos[0] = 32768;
    parse_options(argc, argv, &opt, 1, usage);
    if (opt.pos[0] > 0x7fffffffL / (NDIM * NDIM)) {
        fprintf(stderr, "too many systems\n");
        return 2;
    }
    int systems = (int)opt.pos[0];
    size_t bytes = sizeof(float) * (size_t)systems * NDIM * NDIM;
    printf("%s: systems=%d\n", name, systems);

    float *in = (float *)host_alloc(bytes);
    float *out = (float *)host_alloc(bytes);
    gj_fill(in, systems);

    GjProblem p;
    p.systems = systems;
    CUDA_CHECK(cudaMalloc((void **)&p.in, bytes));
    CUDA_CHECK(cudaMalloc((void **)&p.out, bytes));
    CUDA_CHECK(cudaMemcpy(p.in, in, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(p.out, 0xFF, bytes));
    launch(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out, p.out, bytes, cudaMemcpyDeviceToHost));

    int status = 0;
    if (opt.check)
        status = check == GJ_CHECK_IDENTITY ? gj_check_identity(name, out, systems, opt.check_sample)
                                            : gj_check(name, in, out, systems, opt.check_sample);
    if (opt.dump)
        dump_file(opt.dump, out, bytes, NULL, 0);
    if (opt.time)
        time_launches(launch, &p, opt.time);

    CUDA_CHECK(cudaFree(p.in));
    CUDA_CHECK(cudaFree(p.out));
    free(in);
    free(out);
    return status;
}

#endif
