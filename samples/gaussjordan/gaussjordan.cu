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
 * Annotation: `#pragma tfuse coarsen dim(y) mode(thread) mapping(consecutive)`:
 * a thread owns rows K*y .. K*y+K-1 of its column, as in Volkov's unrolled
 * versions (the stride mapping, rows y + r*blockDim.y, is in the sweep too).
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
 * Check (samples/common/gaussjordan.h, shared with gaussjordan_ws): per
 * matrix, the same in-place inversion on the CPU in double;
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

#include "../common/harness.h"     /* CUDA_CHECK, LCG, options, timing, dump */
#include "../common/gaussjordan.h" /* NDIM, gj_run: data, CPU check, options */

/* __launch_bounds__(1024): the block is always 32x32, and saying so lets
 * nvcc fit the registers of block-mode copies (K = 8 merges eight 32x32
 * systems into one block's threads) into the register file. */
#pragma tfuse coarsen dim(y) mode(thread) mapping(consecutive)
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

/* The one launch site of eliminate: one 32x32 block per matrix. */
static void launch_eliminate(void *ctx)
{
    GjProblem *p = (GjProblem *)ctx;
    dim3 block(NDIM, NDIM);
    dim3 grid(p->systems);
    eliminate<<<grid, block>>>(p->in, p->out);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    return gj_run(argc, argv, "gaussjordan", launch_eliminate, GJ_CHECK_INVERSE);
}
