/*
 * matmul: C = A * B for row-major float matrices, A of M x K, B of K x N,
 * C of M x N; the shared-memory tiled kernel with 16x16 tiles, one element
 * of C per thread, blocks of 16x16 threads, a grid of ceil(N/16) x
 * ceil(M/16) blocks.
 *
 * Origin: the Kirk/Hwu tiled matrix multiply (seeds/kirk-hwu-g80-cuda-
 * matmul.txt, "Multiply Using Several Blocks": Ms/Ns tiles in shared
 * memory, two barriers per tile), here with bounds checks so that M, N and
 * K need not be multiples of 16: a tile element outside A or B is loaded
 * as 0, and only threads inside C store.
 *
 * Annotation: `#pragma tfuse coarsen` (block mode along x by default).
 * Applies: block mode along x and along y, thread mode along x (K must
 * divide 16). The odd size below has 67 x 61 blocks (along x and y a
 * multiple of no K in 2..8), non-square matrices, and partial tiles in
 * every dimension.
 *
 * Data: entries of A and B are multiples of 1/8 in [-2, 2] from a
 * fixed-seed LCG. Every product is then a multiple of 1/64 of magnitude at
 * most 4, and every partial sum a multiple of 1/64 of magnitude at most
 * 4*K, which float holds exactly for K <= 65536: the result does not
 * depend on the order of additions or on FMA contraction, and the check is
 * exact. C is poisoned with 0xFF bytes (a NaN pattern) before the run.
 *
 * Usage: matmul [M] [N] [K] [--check] [--check-sample S] [--dump FILE]
 *               [--time N]
 *   M, N, K           matrix sizes (default 4096 4096 4096)
 *   --check           compare C with a CPU reference, print "matmul: PASS"
 *                     or "matmul: FAIL (...)", exit 0 or 1
 *   --check-sample S  compare only S evenly spread rows of C (0 = all); by
 *                     default all rows when that takes about a second or
 *                     less, else about a second's worth
 *   --dump FILE       write the raw bytes of C (M*N floats) to FILE
 *   --time N          one warm-up launch, then N timed launches; prints
 *                     median_ms=<x>
 *
 * Examples:
 *   nvcc -O3 -arch=sm_90 -o matmul samples/matmul/matmul.cu
 *   ./matmul 975 1071 1000 --check         # odd size: 67 x 61 blocks
 *   ./matmul --time 10                     # 4096^3
 *   tfuse -factor 8 samples/matmul/matmul.cu -o matmul_k8.cu
 *   tfuse -factor 2 -dim y samples/matmul/matmul.cu -o matmul_y2.cu
 *   tfuse -factor 4 -mode thread -dim x samples/matmul/matmul.cu -o matmul_t4.cu
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#define TILE 16

#pragma tfuse coarsen
__global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;

    for (int t = 0; t < (k + TILE - 1) / TILE; t++) {
        // each thread loads one element of each tile, 0 outside the matrix
        int ak = t * TILE + tx;
        int bk = t * TILE + ty;
        As[ty][tx] = (row < m && ak < k) ? A[row * k + ak] : 0.0f;
        Bs[ty][tx] = (bk < k && col < n) ? B[bk * n + col] : 0.0f;
        __syncthreads();

        // each thread computes one element of the block sub-matrix
        for (int kk = 0; kk < TILE; kk++)
            sum += As[ty][kk] * Bs[kk][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        C[row * n + col] = sum;
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
    int m, n, k;
    float *A, *B, *C; /* device */
} Problem;

/* The one launch site of matmul: the original grid of ceil(n/16) x
 * ceil(m/16) blocks of 16x16 threads. */
static void launch_matmul(void *ctx)
{
    Problem *p = (Problem *)ctx;
    dim3 dimBlock(TILE, TILE);
    dim3 dimGrid((p->n + TILE - 1) / TILE, (p->m + TILE - 1) / TILE);
    matmul<<<dimGrid, dimBlock>>>(p->A, p->B, p->C, p->m, p->n, p->k);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    const char *usage = "matmul [M] [N] [K] [--check] [--check-sample S] "
                        "[--dump FILE] [--time N]";
    Options opt;
    opt.pos[0] = 4096;
    opt.pos[1] = 4096;
    opt.pos[2] = 4096;
    parse_options(argc, argv, &opt, 3, usage);
    long M = opt.pos[0], N = opt.pos[1], K = opt.pos[2];
    if ((double)M * K > 2147483647.0 || (double)K * N > 2147483647.0 ||
        (double)M * N > 2147483647.0 || M > 65535L * TILE) {
        fprintf(stderr, "matrices too large\n");
        return 2;
    }
    size_t abytes = sizeof(float) * (size_t)(M * K);
    size_t bbytes = sizeof(float) * (size_t)(K * N);
    size_t cbytes = sizeof(float) * (size_t)(M * N);
    printf("matmul: M=%ld N=%ld K=%ld grid=(%ld,%ld) block=(%d,%d)\n", M, N, K,
           (N + TILE - 1) / TILE, (M + TILE - 1) / TILE, TILE, TILE);
    if (K > 65536)
        printf("matmul: note: K > 65536, the exactness argument of the check does not hold\n");

    float *A = (float *)host_alloc(abytes);
    float *B = (float *)host_alloc(bbytes);
    float *C = (float *)host_alloc(cbytes);
    lcg_seed(4242u);
    for (long i = 0; i < M * K; i++)
        A[i] = (float)lcg_int(-16, 16) / 8.0f;
    for (long i = 0; i < K * N; i++)
        B[i] = (float)lcg_int(-16, 16) / 8.0f;

    Problem p;
    p.m = (int)M;
    p.n = (int)N;
    p.k = (int)K;
    CUDA_CHECK(cudaMalloc((void **)&p.A, abytes));
    CUDA_CHECK(cudaMalloc((void **)&p.B, bbytes));
    CUDA_CHECK(cudaMalloc((void **)&p.C, cbytes));
    CUDA_CHECK(cudaMemcpy(p.A, A, abytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p.B, B, bbytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(p.C, 0xFF, cbytes));
    launch_matmul(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(C, p.C, cbytes, cudaMemcpyDeviceToHost));

    int status = 0;
    if (opt.check) {
        long count = check_count(M, 0.5 * (double)N * K, opt.check_sample);
        long bad = 0, first = -1;
        double first_want = 0.0;
        double *ref = (double *)host_alloc(sizeof(double) * N);
        for (long j = 0; j < count; j++) {
            long i = check_index(j, count, M);
            /* Row i of A * B, accumulated in double (exact, see above). */
            for (long c = 0; c < N; c++)
                ref[c] = 0.0;
            for (long kk = 0; kk < K; kk++) {
                double a = A[i * K + kk];
                const float *b = B + kk * N;
                for (long c = 0; c < N; c++)
                    ref[c] += a * b[c];
            }
            for (long c = 0; c < N; c++) {
                if (!((double)C[i * N + c] == ref[c])) { /* also catches NaN */
                    if (first < 0) {
                        first = i * N + c;
                        first_want = ref[c];
                    }
                    bad++;
                }
            }
        }
        free(ref);
        printf("matmul: checked %ld of %ld rows (%ld of %ld elements), exact\n", count, M,
               count * N, M * N);
        if (bad) {
            printf("matmul: FAIL (%ld mismatches; first at row %ld col %ld: got %.9g want %.9g)\n",
                   bad, first / N, first % N, C[first], first_want);
            status = 1;
        } else {
            printf("matmul: PASS\n");
        }
    }
    if (opt.dump)
        dump_file(opt.dump, C, cbytes, NULL, 0);
    if (opt.time)
        time_launches(launch_matmul, &p, opt.time);

    CUDA_CHECK(cudaFree(p.A));
    CUDA_CHECK(cudaFree(p.B));
    CUDA_CHECK(cudaFree(p.C));
    free(A);
    free(B);
    free(C);
    return status;
}
