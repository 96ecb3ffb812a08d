/*
 * saxpy: y[i] = a*x[i] + y[i], one element per thread, 1D grid of 256-thread
 * blocks.  The input of the CMake package sample: CMakeLists.txt builds this
 * file as is (saxpy) and, through tfuse_coarsen(... FACTOR 4), coarsened by 4
 * in block mode along x (saxpy_k4).  Both print "saxpy: PASS" or
 * "saxpy: FAIL (...)" and exit 0 or 1.
 *
 * Usage: saxpy [n]   (default n = 1000003, not a multiple of 256 or of 4*256)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#pragma tfuse coarsen
__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x*blockDim.x+threadIdx.x;
    if (i < n) y[i] = a*x[i] + y[i];
}

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            fprintf(stderr, "saxpy: FAIL (%s: %s)\n", #call,                 \
                    cudaGetErrorString(err_));                               \
            return 1;                                                        \
        }                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000003;
    if (n <= 0) {
        fprintf(stderr, "usage: saxpy [n > 0]\n");
        return 2;
    }
    const float a = 2.0f;
    size_t bytes = (size_t)n * sizeof(float);
    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes);
    if (!hx || !hy) {
        fprintf(stderr, "saxpy: FAIL (out of host memory)\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i % 1000);
        hy[i] = (float)(i % 7);
    }

    float *x, *y;
    CUDA_CHECK(cudaMalloc(&x, bytes));
    CUDA_CHECK(cudaMalloc(&y, bytes));
    CUDA_CHECK(cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(y, hy, bytes, cudaMemcpyHostToDevice));

    saxpy<<<(n+255)/256, 256>>>(n, a, x, y);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hy, y, bytes, cudaMemcpyDeviceToHost));

    /* Small integers: a*x + y is exact in float on host and device alike. */
    long bad = 0, first = -1;
    for (int i = 0; i < n; i++) {
        float want = a * (float)(i % 1000) + (float)(i % 7);
        if (hy[i] != want) {
            if (first < 0)
                first = i;
            bad++;
        }
    }
    cudaFree(x);
    cudaFree(y);
    free(hx);
    free(hy);
    if (bad) {
        printf("saxpy: FAIL (%ld of %d elements wrong, first at %ld)\n", bad, n, first);
        return 1;
    }
    printf("saxpy: PASS\n");
    return 0;
}
