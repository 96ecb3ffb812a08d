// A __shared__ variable whose type's constructor or destructor is not empty
// (here CCCL's cuda::pipeline_shared_state, as cuda-samples'
// globalToShmemAsyncCopy declares it): nvcc compiles the file, with a
// warning, and runs neither; clang rejects it, and no flag changes that,
// so tfuse cannot read the file.  The error is clang's, at the variable,
// and says that nvcc accepts the code; nothing is written.
// REQUIRES: nvcc
// RUN: %nvcc-check %s 2>&1 | FileCheck %s --check-prefix=NVCC
// NVCC: warning #20054-D: dynamic initialization is not supported for a function-scope static __shared__ variable
// RUN: not %tfuse -factor 2 %s -o %t.cu 2>&1 | FileCheck %s
// RUN: test ! -e %t.cu
// CHECK: shared-constructor.cu:[[@LINE+6]]:71: error: initialization is not supported for __shared__ variables (nvcc accepts a __shared__ variable whose type's constructor or destructor is not empty, with a warning, and runs neither; clang, tfuse's parser, rejects it, so tfuse cannot read this file)
#include <cooperative_groups.h>
#include <cuda/pipeline>

#pragma tfuse coarsen
__global__ void k(float *o) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
  auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &st);
  o[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
