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

#include "../common/harness.h" /* CUDA_CHECK, LCG, options, timing, dump */

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
