/* The tuning runtime (runtime/src/tune.cpp) run on the host, for the
 * candidates that divide an extern __shared__ array (tune-shared.test).
 * With fake-cuda.cpp for memory, this file stands in for the rest of what
 * tune.cpp calls: one device ("Fake GPU", 132 SMs) that allows a block
 * FAKE_OPTIN bytes of shared memory (default 100000), kernels that are
 * addresses with a static shared size and a dynamic limit (48 KB less the
 * static bytes until raised; raising it is printed), events whose elapsed
 * time is that of the candidate launched last, times FAKE_MS_SCALE where it
 * is set (with FAKE_EVENT_FAILS set, recording one fails), no CUDA context
 * (so no timing gate).
 *
 * One site, kernel 'rev', candidates: the original; block.x:2 dividing
 * (kernel k2, no static bytes); block.x:4 dividing (k4, 4096 static
 * bytes); block.x:8 dividing without an address (a template kernel whose
 * launch deduces its arguments); thread.x:2.  Times: 1, 0.5, 0.25, 0.2,
 * 0.9 ms.  Launched with dynamic sizes 20000, 30000, 20000 and 20000 bytes
 * (the last in the site's one-entry cache); prints the choice of each and
 * the candidates each run launched. */
#include <cuda.h>
#include <cuda_runtime.h>

#include <tfuse/tune.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static char k2, k4;
static int g_last = -1;
static const float k_ms[] = {1.0f, 0.5f, 0.25f, 0.2f, 0.9f};
static int g_max_dyn[2] = {49152, 49152 - 4096};

static int optin() {
  const char *o = std::getenv("FAKE_OPTIN");
  return o ? std::atoi(o) : 100000;
}
static int kernel_index(const void *f) { return f == &k2 ? 0 : f == &k4 ? 1 : -1; }

extern "C" {

cudaError_t CUDARTAPI cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int) {
  *v = a == cudaDevAttrMultiProcessorCount ? 132 : a == cudaDevAttrMaxSharedMemoryPerBlockOptin ? optin() : 0;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaFuncGetAttributes(cudaFuncAttributes *fa, const void *f) {
  int i = kernel_index(f);
  if (i < 0)
    return cudaErrorInvalidDeviceFunction;
  std::memset(fa, 0, sizeof *fa);
  fa->sharedSizeBytes = i == 1 ? 4096 : 0;
  fa->maxDynamicSharedSizeBytes = g_max_dyn[i];
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *f, cudaFuncAttribute a, int v) {
  int i = kernel_index(f);
  if (i < 0 || a != cudaFuncAttributeMaxDynamicSharedMemorySize || v + (i == 1 ? 4096 : 0) > optin())
    return cudaErrorInvalidValue;
  std::printf("sim: %s may use %d bytes of dynamic shared memory\n", i ? "k4" : "k2", v);
  g_max_dyn[i] = v;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *s) {
  *s = cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *e) {
  static int n;
  *e = (cudaEvent_t)(size_t)++n;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t, cudaStream_t) {
  return std::getenv("FAKE_EVENT_FAILS") ? cudaErrorUnknown : cudaSuccess; /* the runtime's error exit */
}
cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
  const char *scale = std::getenv("FAKE_MS_SCALE");
  *ms = k_ms[g_last] * (scale ? (float)std::atof(scale) : 1.0f);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind) {
  std::memmove(dst, src, n);
  return cudaSuccess;
}

CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuDeviceGet(CUdevice *d, int o) {
  *d = o;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice) {
  std::snprintf(name, (size_t)len, "Fake GPU");
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *c) {
  *c = 0;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleLoadData(CUmodule *, const void *) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult CUDAAPI cuModuleGetFunction(CUfunction *, CUmodule, const char *) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult CUDAAPI cuMemHostAlloc(void **, size_t, unsigned int) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr *, void *, unsigned int) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                                unsigned int, unsigned int, CUstream, void **, void **) {
  return CUDA_ERROR_NOT_SUPPORTED;
}

} /* extern "C" */

int main() {
  std::setvbuf(stdout, 0, _IONBF, 0); /* in order with the runtime's lines on stderr */
  float *out = 0;
  cudaMalloc((void **)&out, 64 * sizeof(float));
  static const tfuse_tune_cand cands[] = {{0, 0, 1u, "original"},
                                          {1, 0, 2u, "block.x:2", 1, (const void *)&k2},
                                          {1, 0, 4u, "block.x:4", 1, (const void *)&k4},
                                          {1, 0, 8u, "block.x:8", 1, 0},
                                          {2, 0, 2u, "thread.x:2"}};
  static tfuse_tune_site site = {"rev", "0123456789abcdef", "sim.cu:1", 5, cands, 0};
  const size_t sizes[] = {20000, 30000, 20000, 20000};
  for (int l = 0; l < 4; l++) {
    std::printf("sim: launch with %zu bytes\n", sizes[l]);
    auto launch = [&](int c) {
      std::printf("sim: runs %s\n", cands[c].label);
      g_last = c;
      for (int i = 0; i < 64; i++)
        out[i] = (float)i;
    };
    ::tfuse_rt::Tune t(&site, dim3(4), dim3(64), sizes[l], 0);
    if (t.tuning()) {
      t.track(out, "out");
      t.tune(launch);
    }
    std::printf("sim: chose %s\n", cands[t.choice()].label);
  }
  return 0;
}
