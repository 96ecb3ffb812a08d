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

#include "../common/harness.h" /* CUDA_CHECK, LCG, options, timing, dump */

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
