/*
 * volkov_hand: Volkov's hand-unrolled Gauss-Jordan kernels, as the seed has
 * them (seeds/volkov-unrolling-parallel-loops.txt: "Unrolling 8x",
 * "Unrolling 16x", "Reuse local copies instead"), on the host side of
 * samples/gaussjordan_ws, so that tfuse's coarsened gaussjordan_ws can be
 * timed beside the hand-written kernels it imitates (bench/volkov-hand.sh).
 *
 *   nvcc -O3 -arch=sm_90 -DK=8 -DPROMOTE=1 -o volkov_hand bench/volkov_hand.cu
 *   ./volkov_hand [systems] [--check] [--dump FILE] [--time N]
 *
 * K (1, 2, 4, 8, 16 or 32) rows per thread, block (32, 32/K); PROMOTE=1
 * keeps the thread's rows in registers (`float a[K]`). K=1 without
 * promotion is the seed's original kernel, the same as gaussjordan_ws's.
 * Warp-synchronous like the seed (see samples/gaussjordan_ws).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#include "../samples/common/harness.h"
#include "../samples/common/gaussjordan.h"

#ifndef K
#define K 8
#endif
#ifndef PROMOTE
#define PROMOTE 0
#endif

__global__ void eliminate(const float *in, float *out)
{
    __shared__ float A[32][32];
    int x = threadIdx.x, y = threadIdx.y, problem = blockIdx.x;
#if PROMOTE
    float a[K]; // array in registers
#pragma unroll
    for (int j = 0; j < K; j++)
        a[j] = A[K * y + j][x] = in[32 * 32 * problem + 32 * (K * y + j) + x];
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (y == i / K)
            A[i][x] = a[i % K] /= A[i][i];
        __syncthreads();
        float Aix = A[i][x];
#pragma unroll
        for (int j = 0; j < K; j++)
            if (K * y + j != i)
                A[K * y + j][x] = a[j] -= A[K * y + j][i] * Aix;
    }
#pragma unroll
    for (int j = 0; j < K; j++)
        out[32 * 32 * problem + 32 * (K * y + j) + x] = a[j];
#else
#pragma unroll
    for (int j = K * y; j < K * (y + 1); j++)
        A[j][x] = in[32 * 32 * problem + 32 * j + x];
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (y == i / K)
            A[i][x] /= A[i][i];
        __syncthreads();
#pragma unroll
        for (int j = K * y; j < K * (y + 1); j++)
            if (j != i)
                A[j][x] -= A[j][i] * A[i][x];
    }
#pragma unroll
    for (int j = K * y; j < K * (y + 1); j++)
        out[32 * 32 * problem + 32 * j + x] = A[j][x];
#endif
}

static void launch_eliminate(void *ctx)
{
    GjProblem *p = (GjProblem *)ctx;
    dim3 block(NDIM, NDIM / K);
    dim3 grid(p->systems);
    eliminate<<<grid, block>>>(p->in, p->out);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    return gj_run(argc, argv, "volkov_hand", launch_eliminate, GJ_CHECK_IDENTITY);
}
