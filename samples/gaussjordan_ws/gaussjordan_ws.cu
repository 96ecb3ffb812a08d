/*
 * gaussjordan_ws: Volkov's Gauss-Jordan kernel as the seed has it
 * (seeds/volkov-unrolling-parallel-loops.txt, "Small linear solves"), the
 * kernel of the hand-coarsened reference times in docs/RESULTS.md (original
 * 1.27 ms; hand unrolled K=16 2.65x; with register promotion 3.7x): one
 * 32x32 block per matrix, one barrier per step, the pivot row scaled by
 * its own warp alone, every other row updated in place. As in the seed
 * there is no right-hand side, so each matrix is reduced to the identity.
 *
 * Warp-synchronous, as the seed is: in the pivot step lane i of row i
 * writes A[i][i] while the row's other lanes read it, and in the update
 * lane i of row y writes A[y][i] while the others read it. That is correct
 * only while each 32-thread row is one warp whose loads all happen before
 * its store (nvcc emits them so); under the CUDA memory model since Volta
 * it is a data race, which is why samples/gaussjordan reads everything
 * into registers and uses two barriers per step. Use that one as the model
 * for new code; this one is here to measure tfuse against the seed's own
 * kernel and Volkov's hand-written versions of it. Thread mode along y
 * keeps each copy of a logical row in one physical warp, so the coarsened
 * kernel relies on exactly what the original relies on.
 *
 * Annotation: `#pragma tfuse coarsen dim(y) mode(thread) mapping(consecutive)`,
 * rows K*y .. K*y+K-1 per thread as in Volkov's unrolled versions.
 *
 * Data: as samples/gaussjordan (samples/common/gaussjordan.h: symmetric,
 * strictly diagonally dominant, fixed-seed LCG); out poisoned with 0xFF.
 * Check: max |out - I| <= 1e-4 per checked matrix.
 *
 * Usage: gaussjordan_ws [systems] [--check] [--check-sample S] [--dump FILE]
 *                       [--time N]   (as samples/gaussjordan)
 *
 * Examples:
 *   nvcc -O3 -arch=sm_90 -o gaussjordan_ws samples/gaussjordan_ws/gaussjordan_ws.cu
 *   ./gaussjordan_ws 1003 --check
 *   tfuse -factor 8 samples/gaussjordan_ws/gaussjordan_ws.cu -o gjws_t8.cu
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#include "../common/harness.h"     /* CUDA_CHECK, LCG, options, timing, dump */
#include "../common/gaussjordan.h" /* NDIM, gj_run: data, identity check, options */

/* The seed's kernel, names and all (Volkov's slide "Gauss-Jordan in
 * shared memory"), with only the annotation added. */
#pragma tfuse coarsen dim(y) mode(thread) mapping(consecutive)
__global__ void eliminate(const float *in, float *out)
{
    __shared__ float A[32][32];
    int x = threadIdx.x, y = threadIdx.y, problem = blockIdx.x;

    // copy matrix to shared memory
    A[y][x] = in[32 * 32 * problem + 32 * y + x];
    __syncthreads();

    // run Gauss-Jordan in shared memory
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if (y == i)
            A[y][x] /= A[i][i];
        __syncthreads();
        if (y != i)
            A[y][x] -= A[y][i] * A[i][x];
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
    return gj_run(argc, argv, "gaussjordan_ws", launch_eliminate, GJ_CHECK_IDENTITY);
}
