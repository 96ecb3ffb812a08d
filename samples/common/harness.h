/*
 * harness.h: the host utilities shared by the tfuse samples
 * (samples/<name>/<name>.cu include it as "../common/harness.h").
 *
 * - CUDA_CHECK(call): on an error prints
 *   `file:line: cuda error: <call>: <message>` and exits 1.
 * - lcg_seed / lcg_next / lcg_uniform / lcg_int: the fixed-seed Numerical
 *   Recipes LCG that draws every sample's inputs.
 * - Options, parse_options: the common command line
 *   `[sizes...] [--check] [--check-sample S] [--dump FILE] [--time N]`
 *   (bad arguments print the usage and exit 2).
 * - check_count / check_index: how many output units --check compares, and
 *   which (evenly spread, first and last included).
 * - dump_file: writes one or two raw buffers (--dump).
 * - time_launches: one warm-up call, then N calls each timed with CUDA
 *   events; prints `median_ms=<x>` (--time N).
 * - host_alloc: malloc that exits on failure.
 *
 * Everything is static, so each sample is still one translation unit; the
 * kernels and their launches stay in the sample files, where tfuse rewrites
 * them. A copy of a sample written elsewhere (a coarsened file) compiles
 * where "../common/harness.h" resolves from its folder, or with
 * `-I samples/common`.
 */
#ifndef TFUSE_SAMPLES_HARNESS_H
#define TFUSE_SAMPLES_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: cuda error: %s: %s\n", __FILE__,         \
                    __LINE__, #call, cudaGetErrorString(err_));              \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/* Numerical Recipes LCG; the top 24 bits are used for floats. */
static unsigned int lcg_state = 1u;

static void lcg_seed(unsigned int seed) { lcg_state = seed; }

static unsigned int lcg_next(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

/* Uniform in [lo, hi). (Marked unused: not every sample needs both.) */
__attribute__((unused)) static float lcg_uniform(float lo, float hi)
{
    return lo + (hi - lo) * ((float)(lcg_next() >> 8) * (1.0f / 16777216.0f));
}

/* Uniform integer in [lo, hi], for hi - lo < 2^24. */
__attribute__((unused)) static int lcg_int(int lo, int hi)
{
    return lo + (int)((lcg_next() >> 8) % (unsigned int)(hi - lo + 1));
}

typedef struct {
    long pos[4];       /* positional sizes; the caller fills in defaults */
    int npos;
    int check;         /* --check */
    long check_sample; /* --check-sample S: -1 auto, 0 all, S > 0 that many */
    const char *dump;  /* --dump FILE */
    int time;          /* --time N */
} Options;

static void usage_exit(const char *usage, int code)
{
    fprintf(code ? stderr : stdout, "usage: %s\n", usage);
    exit(code);
}

static long parse_long(const char *s, const char *usage, long min)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < min) {
        fprintf(stderr, "bad number '%s'\n", s);
        usage_exit(usage, 2);
    }
    return v;
}

static void parse_options(int argc, char **argv, Options *o, int maxpos,
                          const char *usage)
{
    o->npos = 0;
    o->check = 0;
    o->check_sample = -1;
    o->dump = NULL;
    o->time = 0;
    for (int a = 1; a < argc; a++) {
        const char *s = argv[a];
        if (!strcmp(s, "--check")) {
            o->check = 1;
        } else if (!strcmp(s, "--check-sample") && a + 1 < argc) {
            o->check = 1;
            o->check_sample = parse_long(argv[++a], usage, 0);
        } else if (!strcmp(s, "--dump") && a + 1 < argc) {
            o->dump = argv[++a];
        } else if (!strcmp(s, "--time") && a + 1 < argc) {
            o->time = (int)parse_long(argv[++a], usage, 1);
        } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage_exit(usage, 0);
        } else if (s[0] == '-') {
            fprintf(stderr, "unknown or incomplete option '%s'\n", s);
            usage_exit(usage, 2);
        } else if (o->npos < maxpos) {
            o->pos[o->npos++] = parse_long(s, usage, 1);
        } else {
            fprintf(stderr, "too many arguments\n");
            usage_exit(usage, 2);
        }
    }
    if (o->npos < maxpos)
        o->npos = maxpos; /* the remaining positions keep their defaults */
}

/*
 * How many output units --check compares: all of them when the CPU
 * reference for all of them takes about a second or less (ns_per_unit is a
 * rough cost estimate), otherwise an evenly spread subset of that cost.
 * --check-sample S overrides: 0 means all, S > 0 means S units.
 */
static long check_count(long total, double ns_per_unit, long requested)
{
    long n;
    if (requested == 0)
        return total;
    if (requested > 0)
        n = requested;
    else if ((double)total * ns_per_unit <= 1e9)
        return total;
    else
        n = (long)(1e9 / ns_per_unit);
    if (n < 2)
        n = 2;
    return n < total ? n : total;
}

/* The j-th of count evenly spread units among total; the first and the
 * last unit are always included. */
static long check_index(long j, long count, long total)
{
    if (count >= total)
        return j;
    return (long)((long long)j * (total - 1) / (count - 1));
}

static void dump_file(const char *path, const void *p1, size_t bytes1,
                      const void *p2, size_t bytes2)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    if (fwrite(p1, 1, bytes1, f) != bytes1 ||
        (p2 && fwrite(p2, 1, bytes2, f) != bytes2) || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* One warm-up call of launch(ctx), then n calls each timed with events;
 * prints the median. */
static void time_launches(void (*launch)(void *), void *ctx, int n)
{
    cudaEvent_t t0, t1;
    float *ms = (float *)malloc(sizeof(float) * n);
    if (!ms) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    launch(ctx);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int t = 0; t < n; t++) {
        CUDA_CHECK(cudaEventRecord(t0));
        launch(ctx);
        CUDA_CHECK(cudaEventRecord(t1));
        CUDA_CHECK(cudaEventSynchronize(t1));
        CUDA_CHECK(cudaEventElapsedTime(&ms[t], t0, t1));
    }
    qsort(ms, n, sizeof(float), cmp_float);
    printf("median_ms=%.4f\n", n % 2 ? ms[n / 2] : 0.5f * (ms[n / 2 - 1] + ms[n / 2]));
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    free(ms);
}

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

#endif /* TFUSE_SAMPLES_HARNESS_H */
