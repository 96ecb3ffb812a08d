/*
 * reduction: per-block sums of an array, the shared-memory tree reduction
 * with sequential addressing ("reduction #3"), 256 threads per block. Each
 * block writes one partial sum; the host adds the partials.
 *
 * Origin: Harris, "Optimizing parallel reduction in CUDA", kernel 3
 * (seeds/harris-optimizing-cuda.txt), and the reduction chapter of
 * seeds/reduction-loop-unrolling.txt. Differences from the seed: the shared
 * array is a fixed-size `__shared__ float sdata[256]` declared in the kernel
 * (no `extern __shared__`), and elements past n load as 0 so that n need not
 * be a multiple of 256.
 *
 * Annotation: `#pragma tfuse coarsen` (block mode along x by default).
 * Applies: block mode along x; thread mode along x (K must divide 256; the
 * block then has 256/K threads, and the loop bound blockDim.x/2 is the
 * logical block size).
 *
 * Data: integers in [-1000, 1000] stored as floats, so every partial sum
 * (at most 256 * 1000 in magnitude) is exact in float whatever the order of
 * additions; the check compares every block's partial bit for bit with a
 * CPU sum and the total exactly. The partials buffer is poisoned with 0xFF
 * bytes (a NaN pattern) before the run.
 *
 * Usage: reduction [n] [--check] [--check-sample S] [--dump FILE] [--time N]
 *   n                 number of elements (default 16777216 = 2^24)
 *   --check           compare the per-block partials and the total with a
 *                     CPU reference, print "reduction: PASS" or
 *                     "reduction: FAIL (...)", exit 0 or 1
 *   --check-sample S  compare only S evenly spread partials (0 = all; the
 *                     default compares all, which is cheap here)
 *   --dump FILE       write the raw bytes of the partials (ceil(n/256)
 *                     floats) to FILE
 *   --time N          one warm-up launch, then N timed launches; prints
 *                     median_ms=<x>
 *
 * Examples:
 *   nvcc -O3 -arch=sm_90 -o reduction samples/reduction/reduction.cu
 *   ./reduction 1000003 --check            # odd size: 3907 blocks
 *   ./reduction --time 20
 *   tfuse -factor 8 samples/reduction/reduction.cu -o reduction_k8.cu
 *   tfuse -factor 4 -mode thread -dim x samples/reduction/reduction.cu -o reduction_t4.cu
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#define BLOCK 256

#pragma tfuse coarsen
__global__ void reduce(const float *g_in, float *g_out, unsigned int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

/* ---- host utilities (the same in every sample) ------------------------- */

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

typedef struct {
    unsigned int n;
    float *in, *out; /* device */
} Problem;

/* The one launch site of reduce: the original grid, ceil(n / 256) blocks of
 * 256 threads (the kernel's shared array has exactly 256 elements). */
static void launch_reduce(void *ctx)
{
    Problem *p = (Problem *)ctx;
    int block = BLOCK;
    int grid = (int)((p->n + block - 1) / block);
    reduce<<<grid, block>>>(p->in, p->out, p->n);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    const char *usage =
        "reduction [n] [--check] [--check-sample S] [--dump FILE] [--time N]";
    Options opt;
    opt.pos[0] = 1L << 24;
    parse_options(argc, argv, &opt, 1, usage);
    if (opt.pos[0] > 0x7fffffffL - BLOCK) {
        fprintf(stderr, "n too large\n");
        return 2;
    }
    unsigned int n = (unsigned int)opt.pos[0];
    int nblocks = (int)((n + BLOCK - 1) / BLOCK);
    size_t in_bytes = sizeof(float) * (size_t)n;
    size_t out_bytes = sizeof(float) * (size_t)nblocks;
    printf("reduction: n=%u grid=%d block=%d\n", n, nblocks, BLOCK);

    float *in = (float *)host_alloc(in_bytes);
    float *out = (float *)host_alloc(out_bytes);
    lcg_seed(2024u);
    for (unsigned int i = 0; i < n; i++)
        in[i] = (float)lcg_int(-1000, 1000);

    Problem p;
    p.n = n;
    CUDA_CHECK(cudaMalloc((void **)&p.in, in_bytes));
    CUDA_CHECK(cudaMalloc((void **)&p.out, out_bytes));
    CUDA_CHECK(cudaMemcpy(p.in, in, in_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(p.out, 0xFF, out_bytes));
    launch_reduce(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out, p.out, out_bytes, cudaMemcpyDeviceToHost));

    int status = 0;
    if (opt.check) {
        long count = check_count(nblocks, 1.0 * BLOCK, opt.check_sample);
        long bad = 0, first = -1;
        float first_want = 0.0f;
        for (long j = 0; j < count; j++) {
            long b = check_index(j, count, nblocks);
            /* Integers of magnitude <= 256 * 1000 are exact in a float. */
            long want = 0;
            for (long i = b * BLOCK; i < (b + 1) * BLOCK && i < (long)n; i++)
                want += (long)in[i];
            float fwant = (float)want;
            if (memcmp(&out[b], &fwant, sizeof(float)) != 0) {
                if (first < 0) {
                    first = b;
                    first_want = fwant;
                }
                bad++;
            }
        }
        /* The total as the host program would form it, from all partials. */
        long long total = 0, total_want = 0;
        int total_ok = 1;
        if (count == nblocks) {
            for (int b = 0; b < nblocks; b++)
                total += (long long)out[b];
            for (unsigned int i = 0; i < n; i++)
                total_want += (long long)in[i];
            total_ok = total == total_want;
        }
        printf("reduction: checked %ld of %d block partials, exact\n", count, nblocks);
        if (bad) {
            printf("reduction: FAIL (%ld mismatches; first at block %ld: got %.9g want %.9g)\n",
                   bad, first, out[first], first_want);
            status = 1;
        } else if (!total_ok) {
            printf("reduction: FAIL (total %lld want %lld)\n", total, total_want);
            status = 1;
        } else {
            if (count == nblocks)
                printf("reduction: total=%lld\n", total);
            printf("reduction: PASS\n");
        }
    }
    if (opt.dump)
        dump_file(opt.dump, out, out_bytes, NULL, 0);
    if (opt.time)
        time_launches(launch_reduce, &p, opt.time);

    CUDA_CHECK(cudaFree(p.in));
    CUDA_CHECK(cudaFree(p.out));
    free(in);
    free(out);
    return status;
}
