// The output of -factor auto links with the tuning runtime, from the source
// (runtime/src/tune.cpp) and as the archive the CMake build makes
// (lib/libtfuse_tune.a), with -lcuda.  Run without a GPU (a copy of the
// CUDA stub driver stands in for libcuda.so.1, so CUDA itself fails, also
// on a machine with a GPU): the dispatch runs the original (candidate 0),
// whose launch error the program sees as without tfuse; a damaged wisdom
// file is ignored with one warning, never a crash; TFUSE_TUNE=0 is quiet.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -candidates 2,4 %t.in.cu -o %t.cu
// RUN: %nvcc -arch=sm_90 -std=c++17 %t.cu %src-root/runtime/src/tune.cpp -lcuda -o %t
// RUN: %nvcc -arch=sm_90 -std=c++17 %t.cu %build-root/lib/libtfuse_tune.a -lcuda -o %t.a
// RUN: rm -rf %t.stub && mkdir %t.stub && ln -s %cuda-path/lib64/stubs/libcuda.so %t.stub/libcuda.so.1
// RUN: rm -f %t.wisdom && env TFUSE_WISDOM=%t.wisdom LD_LIBRARY_PATH=%t.stub %t 2>&1 | FileCheck --check-prefix=NONE %s
// RUN: env TFUSE_WISDOM=%t.wisdom TFUSE_TUNE=0 LD_LIBRARY_PATH=%t.stub %t.a 2>&1 | FileCheck --check-prefix=NONE %s
// NONE:      launched: {{.+}}
// NONE-NEXT: launched: {{.+}}
// NONE-NOT:  {{.}}
// RUN: printf 'not wisdom\n' > %t.bad && env TFUSE_WISDOM=%t.bad LD_LIBRARY_PATH=%t.stub %t 2>&1 | FileCheck --check-prefix=BAD %s
// BAD:      tfuse-tune: warning: ignoring the wisdom file '{{.*}}.bad': it is not a tfuse wisdom file (or is damaged); it will be rewritten
// BAD-NEXT: launched: {{.+}}
// BAD-NEXT: launched: {{.+}}
// BAD-NOT:  {{.}}
#include <cstdio>

#pragma tfuse coarsen factor(auto)
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1.0f;
}

int main() {
  float *out = 0;
  for (int j = 0; j < 2; j++) {
    k<<<4, 64>>>(out, out, 256);
    std::printf("launched: %s\n", cudaGetErrorString(cudaGetLastError()));
  }
  return 0;
}
