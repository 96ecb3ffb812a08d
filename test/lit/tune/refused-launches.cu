// -factor auto renames every variant, so each launch must become a
// dispatch, and every other use of the kernel's name is a located error
// (at the name, inside a macro's argument too): a function pointer's value,
// and the runtime's launch functions (cudaLaunchKernel); a query
// (cudaFuncGetAttributes) names the original variant, k__tf_k1
// (launch/runtime-api-queries.cu).  Nothing is written.  Launches in a macro's
// argument or inside a larger expression are routed
// (launch/auto-macro-argument.cu).
// RUN: rm -f %t.out
// RUN: not %tfuse -factor auto -kernel k %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#include <cuda_runtime.h>
__global__ void k(float *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
#define L(x) x
int run(float *o) {
  void *args[] = {&o};
// CHECK-DAG: refused-launches.cu:[[@LINE+1]]:34: error: -factor auto cannot route 'k' passed to cudaLaunchKernel (each variant is a kernel of its own); coarsen it with a fixed -factor
  cudaLaunchKernel((const void *)k, dim3(4), dim3(64), args, 0, 0);
  cudaFuncAttributes a;
// CHECK-NOT: cudaFuncGetAttributes
  L(cudaFuncGetAttributes(&a, k));
  return 0;
}
// CHECK-DAG: refused-launches.cu:[[@LINE+1]]:45: error: 'k' is used here other than in a <<<...>>> launch; tfuse cannot rescale such a launch, so it refuses to coarsen the kernel
void other(float *o) { void (*p)(float *) = k; (void)p; }
