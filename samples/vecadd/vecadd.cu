/*
 * vecadd: c[i] = a[i] + b[i] for i < n, one element per thread, 1D grid of
 * 256-thread blocks.
 *
 * Origin: the "it starts with a loop" example of Volkov, "Unrolling parallel
 * loops" (seeds/volkov-unrolling-parallel-loops.txt), with the usual
 * `if (i < n)` bounds check so that n need not be a multiple of the block.
 *
 * Annotation: `#pragma tfuse coarsen` (block mode along x by default).
 * Applies: block mode along x, thread mode along x (K must divide 256).
 *
 * Data: a and b hold values drawn from a fixed-seed LCG; c is poisoned with
 * 0xFF bytes (a NaN pattern) before the run, so an unwritten element shows.
 * The check is exact: one IEEE float addition is correctly rounded on the
 * host and on the GPU alike.
 *
 * Usage: vecadd [n] [--check] [--check-sample S] [--dump FILE] [--time N]
 *   n                 number of elements (default 268435456 = 2^28)
 *   --check           compare c with a CPU reference, print "vecadd: PASS"
 *                     or "vecadd: FAIL (...)", exit 0 or 1
 *   --check-sample S  compare only S evenly spread elements (0 = all; the
 *                     default compares all of them, which is cheap here)
 *   --dump FILE       write the raw bytes of c (n floats) to FILE
 *   --time N          one warm-up launch, then N timed launches; prints
 *                     median_ms=<x>
 *
 * Examples:
 *   nvcc -O3 -arch=sm_90 -o vecadd samples/vecadd/vecadd.cu
 *   ./vecadd 1000003 --check               # odd size: 3907 blocks
 *   ./vecadd --time 20                     # 2^28 floats
 *   tfuse -factor 4 samples/vecadd/vecadd.cu -o vecadd_k4.cu
 *   tfuse -factor 8 -mode thread -dim x samples/vecadd/vecadd.cu -o vecadd_t8.cu
 *   ./vecadd 1000003 --dump a.bin && ./vecadd_k4 1000003 --dump b.bin && cmp a.bin b.bin
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#include "../common/harness.h" /* CUDA_CHECK, LCG, options, timing, dump */

#define BLOCK 256

#pragma tfuse coarsen
__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* ---- the problem -------------------------------------------------------- */

typedef struct {
    int n;
    float *a, *b, *c; /* device */
} Problem;

/* The one launch site of vecadd: the original grid, ceil(n / 256) blocks. */
static void launch_vecadd(void *ctx)
{
    Problem *p = (Problem *)ctx;
    int block = BLOCK;
    int grid = (p->n + block - 1) / block;
    vecadd<<<grid, block>>>(p->a, p->b, p->c, p->n);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    const char *usage =
        "vecadd [n] [--check] [--check-sample S] [--dump FILE] [--time N]";
    Options opt;
    opt.pos[0] = 1L << 28;
    parse_options(argc, argv, &opt, 1, usage);
    if (opt.pos[0] > 0x7fffffffL - BLOCK) {
        fprintf(stderr, "n too large\n");
        return 2;
    }
    int n = (int)opt.pos[0];
    size_t bytes = sizeof(float) * (size_t)n;
    printf("vecadd: n=%d grid=%d block=%d\n", n, (n + BLOCK - 1) / BLOCK, BLOCK);

    float *a = (float *)host_alloc(bytes);
    float *b = (float *)host_alloc(bytes);
    float *c = (float *)host_alloc(bytes);
    lcg_seed(12345u);
    for (int i = 0; i < n; i++) {
        a[i] = lcg_uniform(-1.0f, 1.0f);
        b[i] = lcg_uniform(-1.0f, 1.0f);
    }

    Problem p;
    p.n = n;
    CUDA_CHECK(cudaMalloc((void **)&p.a, bytes));
    CUDA_CHECK(cudaMalloc((void **)&p.b, bytes));
    CUDA_CHECK(cudaMalloc((void **)&p.c, bytes));
    CUDA_CHECK(cudaMemcpy(p.a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(p.b, b, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(p.c, 0xFF, bytes));
    launch_vecadd(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(c, p.c, bytes, cudaMemcpyDeviceToHost));

    int status = 0;
    if (opt.check) {
        long count = check_count(n, 1.0, opt.check_sample);
        long bad = 0, first = -1;
        for (long j = 0; j < count; j++) {
            long i = check_index(j, count, n);
            float want = a[i] + b[i];
            /* Bitwise, so that a NaN from the poison never compares equal. */
            if (memcmp(&c[i], &want, sizeof(float)) != 0) {
                if (first < 0)
                    first = i;
                bad++;
            }
        }
        printf("vecadd: checked %ld of %d elements, exact\n", count, n);
        if (bad) {
            float want = a[first] + b[first];
            printf("vecadd: FAIL (%ld mismatches; first at %ld: got %.9g want %.9g)\n",
                   bad, first, c[first], want);
            status = 1;
        } else {
            printf("vecadd: PASS\n");
        }
    }
    if (opt.dump)
        dump_file(opt.dump, c, bytes, NULL, 0);
    if (opt.time)
        time_launches(launch_vecadd, &p, opt.time);

    CUDA_CHECK(cudaFree(p.a));
    CUDA_CHECK(cudaFree(p.b));
    CUDA_CHECK(cudaFree(p.c));
    free(a);
    free(b);
    free(c);
    return status;
}
