// Input for driver/nvcc-query.test: the kernel's name says where the
// parser's include folders and macros came from.
#include <cuda_runtime.h>

#if __has_include(<fake_extra.h>) && __CUDACC_VER_MAJOR__ == 99 && __CUDACC_VER_MINOR__ == 1 && \
    __cplusplus == 201402L && !defined(__NVCC__) && __CUDA_ARCH_LIST__ != 520
// what the fake nvcc said (its device line, version 98, is not read)
static_assert(sizeof(FAKE_STRING) == 6, "a quoted macro value");
__global__ void asked_nvcc(float *a) { a[threadIdx.x] = 0; }
#elif !defined(__CUDACC_VER_MAJOR__) && __has_include(<cuda/std/cstdint>)
// no nvcc: no version macros, but CCCL's folder
__global__ void no_nvcc(float *a) { a[threadIdx.x] = 0; }
#else
__global__ void unexpected(float *a) { a[threadIdx.x] = 0; }
#endif

#if __has_include(<tfuse_driver_test.h>)
__global__ void with_include(float *a) { a[threadIdx.x] = 0; }
#endif
