#include <hostcc_only.h>
#include <shadowed.h>
#if HOSTCC_ONLY && SHADOWED_FROM_NVCC && !defined(SHADOWED_FROM_HOSTCC)
__global__ void from_host_folders(float *a) { a[threadIdx.x] = 1.0f; }
#endif
