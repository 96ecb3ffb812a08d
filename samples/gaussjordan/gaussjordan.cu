/*
 * gaussjordan: invert many independent 32x32 matrices in place by
 * Gauss-Jordan elimination without pivoting, one matrix per 32x32 block,
 * one element per thread, the matrix held in __shared__ float A[32][32].
 *
 * Origin: Volkov's baseline `eliminate` kernel (seeds/volkov-unrolling-
 * parallel-loops.txt: "Small linear solves", 32x32 s.p.d. systems, one per
 * block, Gauss-Jordan in shared memory). Two deliberate differences:
 *
 * 1. Race freedom. The baseline scales the pivot row with
 *    `if (y == i) A[y][x] /= A[i][i];` and eliminates with
 *    `if (y != i) A[y][x] -= A[y][i]*A[i][x];` with one barrier per step.
 *    Thread (i, y) writes A[y][i] (and A[i][i]) while the other threads of
 *    row y read it: correct only while each 32-thread row runs as one warp
 *    in lockstep, i.e. warp-synchronous code, a data race under the CUDA
 *    memory model since Volta. Here every thread reads what step i needs
 *    (pivot, its row's multiplier, the pivot row's element of its column,
 *    its own element) into registers, all threads meet at a barrier, then
 *    each writes only its own element A[y][x], and a second barrier ends
 *    the step. All stores to A are at the owner's index A[y][x], so
 *    Volkov's register promotion of A[y][x] applies.
 * 2. A meaningful result. The baseline omits the right-hand side, so it
 *    turns every matrix into the identity. This kernel keeps the same
 *    arithmetic (pivot row divided by the pivot, then row y minus its
 *    multiplier times the scaled pivot row) but stores the textbook
 *    in-place inversion's 1/pivot and -multiplier/pivot in column i, so
 *    `out` holds the inverse of each input matrix.
 *
 * Annotation: `#pragma tfuse coarsen dim(y) mode(thread)`.
 * Applies: thread mode along y (K must divide 32: one thread then owns K
 * rows of its column, as in Volkov's unrolled versions), and block mode
 * along x (several matrices per block; -mode block -dim x on the command
 * line). The odd size below has 1003 blocks, a multiple of no K in 2..8.
 *
 * Data: symmetric matrices with off-diagonal entries in [-1, 1) and
 * diagonal entries in [33, 34) from a fixed-seed LCG, so strictly
 * diagonally dominant and positive definite: elimination without pivoting
 * is stable. The output buffer is poisoned with 0xFF bytes (a NaN pattern)
 * before the run.
 *
 * Check: per matrix, the same in-place inversion on the CPU in double;
 * |gpu - ref| <= 1e-4 * max|ref| of that matrix, and, independently of the
 * reference, max |A * out - I| <= 1e-4.
 *
 * Usage: gaussjordan [systems] [--check] [--check-sample S] [--dump FILE]
 *                    [--time N]
 *   systems           number of 32x32 matrices (default 32768)
 *   --check           compare with the CPU reference, print
 *                     "gaussjordan: PASS" or "gaussjordan: FAIL (...)",
 *                     exit 0 or 1
 *   --check-sample S  check only S evenly spread matrices (0 = all); by
 *                     default all when that takes about a second or less
 *   --dump FILE       write the raw bytes of out (systems*1024 floats)
 *   --time N          one warm-up launch, then N timed launches; prints
 *                     median_ms=<x>
 *
 * Examples:
 *   nvcc -O3 -arch=sm_90 -o gaussjordan samples/gaussjordan/gaussjordan.cu
 *   ./gaussjordan 1003 --check             # odd size: 1003 blocks
 *   ./gaussjordan --time 20                # 32768 matrices
 *   tfuse -factor 16 samples/gaussjordan/gaussjordan.cu -o gj_t16.cu
 *   tfuse -factor 4 -mode block -dim x samples/gaussjordan/gaussjordan.cu -o gj_b4.cu
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#define NDIM 32

/* __launch_bounds__(1024): the block is always 32x32, and saying so lets
 * nvcc fit the registers of block-mode copies (K = 8 merges eight 32x32
 * systems into one block's threads) into the register file. */
#pragma tfuse coarsen dim(y) mode(thread)
__global__ void __launch_bounds__(1024) eliminate(const float *in, float *out)
{
    __shared__ float A[32][32];
    int x = threadIdx.x, y = threadIdx.y, problem = blockIdx.x;

    // copy matrix to shared memory
    A[y][x] = in[32 * 32 * problem + 32 * y + x];
    __syncthreads();

    // run Gauss-Jordan in shared memory
#pragma unroll
    for (int i = 0; i < 32; i++) {
        float pivot = A[i][i];
        float f = A[y][i];
        float r = A[i][x];
        float a = A[y][x];
        __syncthreads();
        float s = (x == i ? 1.0f : r) / pivot;
        if (y == i)
            A[y][x] = s;
        else
            A[y][x] = (x == i ? 0.0f : a) - f * s;
        __syncthreads();
    }

    // copy result to global memory
    out[32 * 32 * problem + 32 * y + x] = A[y][x];
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
    int systems;
    float *in, *out; /* device */
} Problem;

/* The one launch site of eliminate: one 32x32 block per matrix. */
static void launch_eliminate(void *ctx)
{
    Problem *p = (Problem *)ctx;
    dim3 block(NDIM, NDIM);
    dim3 grid(p->systems);
    eliminate<<<grid, block>>>(p->in, p->out);
    CUDA_CHECK(cudaGetLastError());
}

/* Textbook in-place Gauss-Jordan inversion without pivoting, in double:
 * for each i, scale row i by 1/pivot (its diagonal becoming 1/pivot), then
 * subtract multiple A[y][i] of it from every other row y (column i
 * becoming -A[y][i]/pivot). */
static void invert_ref(double a[NDIM][NDIM])
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

int main(int argc, char **argv)
{
    const char *usage = "gaussjordan [systems] [--check] [--check-sample S] "
                        "[--dump FILE] [--time N]";
    Options opt;
    opt.pos[0] = 32768;
    parse_options(argc, argv, &opt, 1, usage);
    if (opt.pos[0] > 0x7fffffffL / (NDIM * NDIM)) {
        fprintf(stderr, "too many systems\n");
        return 2;
    }
    int systems = (int)opt.pos[0];
    size_t elems = (size_t)systems * NDIM * NDIM;
    size_t bytes = sizeof(float) * elems;
    printf("gaussjordan: systems=%d grid=%d block=(%d,%d)\n", systems, systems, NDIM, NDIM);

    float *in = (float *)host_alloc(bytes);
    float *out = (float *)host_alloc(bytes);
    lcg_seed(31337u);
    for (int p = 0; p < systems; p++) {
        float *m = in + (size_t)p * NDIM * NDIM;
        for (int y = 0; y < NDIM; y++) {
            m[NDIM * y + y] = lcg_uniform(33.0f, 34.0f);
            for (int x = y + 1; x < NDIM; x++)
                m[NDIM * y + x] = m[NDIM * x + y] = lcg_uniform(-1.0f, 1.0f);
        }
    }

    Problem p;
    p.systems = systems;
    CUDA_CHECK(cudaMalloc((void **)&p.in, bytes));
    CUDA_CHECK(cudaMalloc((void **)&p.out, bytes));
    CUDA_CHECK(cudaMemcpy(p.in, in, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(p.out, 0xFF, bytes));
    launch_eliminate(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out, p.out, bytes, cudaMemcpyDeviceToHost));

    int status = 0;
    if (opt.check) {
        long count = check_count(systems, 2.0 * NDIM * NDIM * NDIM * 2, opt.check_sample);
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
            invert_ref(ref);
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
        printf("gaussjordan: checked %ld of %d matrices, tolerance 1e-4 relative to max|inverse| "
               "(max %.3g), residual |A*out - I| <= 1e-4 (max %.3g)\n",
               count, systems, max_rel, max_res);
        if (bad) {
            printf("gaussjordan: FAIL (%ld bad matrices; first is matrix %ld)\n", bad, first);
            status = 1;
        } else {
            printf("gaussjordan: PASS\n");
        }
    }
    if (opt.dump)
        dump_file(opt.dump, out, bytes, NULL, 0);
    if (opt.time)
        time_launches(launch_eliminate, &p, opt.time);

    CUDA_CHECK(cudaFree(p.in));
    CUDA_CHECK(cudaFree(p.out));
    free(in);
    free(out);
    return status;
}
