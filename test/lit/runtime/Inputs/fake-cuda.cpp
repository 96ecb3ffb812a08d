/* A stand-in for the few CUDA runtime and driver functions that
 * runtime/src/check.cpp calls, on host memory, so that the check runtime's
 * bookkeeping, comparison and reports run on a machine without a GPU.
 * Link it instead of cudart and libcuda (nvcc -cudart none).
 *
 * "Device" allocations are host blocks from cudaMalloc or fake_device_alloc,
 * known to cuMemGetAddressRange; any other pointer is CUDA_ERROR_NOT_FOUND.
 * fake_fail_next_launch(e) makes the next cudaGetLastError return e, as
 * after a failed launch.  cudaGetSymbolAddress answers a host variable's
 * own address (the "device" variable is the host one), except for the
 * variable given to fake_symbol_missing: cudaErrorInvalidSymbol.  With FAKE_CUDA_TRACE set, cudaMalloc and cudaFree
 * print a line each on stdout. */
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Block {
  unsigned char *p;
  size_t size;
};
static Block g_blocks[256];
static int g_nblocks;
static cudaError_t g_pending = cudaSuccess;
static bool trace() { return std::getenv("FAKE_CUDA_TRACE") != 0; }

void *fake_device_alloc(size_t size) {
  unsigned char *p = (unsigned char *)std::malloc(size ? size : 1);
  g_blocks[g_nblocks].p = p;
  g_blocks[g_nblocks].size = size;
  g_nblocks++;
  return p;
}

void fake_fail_next_launch(cudaError_t e) { g_pending = e; }

static const void *g_missing_symbol;
void fake_symbol_missing(const void *sym) { g_missing_symbol = sym; }

extern "C" {

cudaError_t CUDARTAPI cudaMalloc(void **p, size_t size) {
  if (trace())
    std::printf("fake: cudaMalloc %zu bytes\n", size);
  *p = fake_device_alloc(size);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFree(void *p) {
  if (!p)
    return cudaSuccess;
  for (int i = 0; i < g_nblocks; i++)
    if (g_blocks[i].p == p) {
      if (trace())
        std::printf("fake: cudaFree %zu bytes\n", g_blocks[i].size);
      std::free(p);
      g_blocks[i] = g_blocks[--g_nblocks];
      return cudaSuccess;
    }
  return cudaErrorInvalidValue;
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind,
                                      cudaStream_t) {
  std::memmove(dst, src, n);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

cudaError_t CUDARTAPI cudaGetLastError(void) {
  cudaError_t e = g_pending;
  g_pending = cudaSuccess;
  return e;
}

const char *CUDARTAPI cudaGetErrorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
  case cudaErrorInvalidSymbol: return "invalid device symbol";
  default: return "some CUDA error";
  }
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void **p, const void *symbol) {
  if (symbol == g_missing_symbol) {
    *p = 0;
    g_pending = cudaErrorInvalidSymbol; /* the runtime also records it as the last error */
    return cudaErrorInvalidSymbol;
  }
  *p = (void *)symbol;
  return cudaSuccess;
}

CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr dptr) {
  for (int i = 0; i < g_nblocks; i++) {
    CUdeviceptr b = (CUdeviceptr)(uintptr_t)g_blocks[i].p;
    if (dptr >= b && dptr < b + g_blocks[i].size) {
      *base = b;
      *size = g_blocks[i].size;
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuGetErrorName(CUresult r, const char **name) {
  *name = r == CUDA_ERROR_NOT_FOUND ? "CUDA_ERROR_NOT_FOUND" : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

} /* extern "C" */
