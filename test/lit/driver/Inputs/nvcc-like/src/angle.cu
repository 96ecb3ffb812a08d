// Input for driver/include-paths.test: helper.h sits next to this file, but
// an angle-bracket include does not search the file's folder, neither under
// nvcc nor under tfuse.
#include <helper.h>
__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = HELPER; }
