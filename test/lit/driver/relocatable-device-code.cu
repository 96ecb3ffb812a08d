// A kernel launched from a kernel needs relocatable device code: nvcc
// compiles this file with -rdc=true (cuda-samples compile every file so),
// --relocatable-device-code=true, -rdc true, -dc, -dlto or -ewp, and
// rejects it without.  tfuse reads nvcc's answer for the flags (its
// cudafe++ step gets --device-c or --partial-link) and parses with clang's
// -fgpu-rdc; where nvcc rejects the flags it reads them itself; a clang
// command line's -fgpu-rdc goes through (compdb/relocatable-device-code.cu).
// `parent`, which launches from the device, is left as it is; `scale` is
// coarsened, the same for every spelling.
// REQUIRES: nvcc
// RUN: not %tfuse -factor 2 %s -o %t.none.cu 2>&1 | FileCheck %s --check-prefix=NORDC
// RUN: test ! -e %t.none.cu
// NORDC: relocatable-device-code.cu:[[@LINE+20]]:{{[0-9]+}}: error: kernel launch from __device__ or __global__ function requires relocatable device code
//
// RUN: %tfuse -factor 2 %s -o %t.cu -- -arch=sm_90 -rdc=true 2>&1 | count 0
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check -rdc=true %t.cu
// RUN: %tfuse -v -factor 2 %s -o %t.long.cu -- --relocatable-device-code=true 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: tfuse: parsing {{.*}} -fgpu-rdc
// RUN: %tfuse -factor 2 %s -o %t.sep.cu -- -rdc true
// RUN: %tfuse -factor 2 %s -o %t.dc.cu -- -dc
// RUN: %tfuse -factor 2 %s -o %t.dlto.cu -- -dlto
// RUN: %tfuse -factor 2 %s -o %t.ewp.cu -- -ewp
// RUN: %tfuse -factor 2 %s -o %t.self.cu -- -rdc=true -fPIC 2>&1 | FileCheck %s --check-prefix=SELF
// SELF: warning: nvcc rejects the compiler flags
// RUN: for f in long sep dc dlto ewp self; do diff %t.cu %t.$f.cu; done
// RUN: not %tfuse -factor 2 %s -o %t.off.cu -- -rdc=true -fPIC -rdc=false 2>&1 | FileCheck %s --check-prefix=NORDC

__global__ void child(float *o) { o[threadIdx.x] = 1.0f; }

__global__ void parent(float *o) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(o);
}

// CHECK-LABEL: __global__ void scale(unsigned int __tf_grid_x, float *o, float s)
// CHECK: o[(blockIdx.x * 2) * blockDim.x + threadIdx.x] *= s;
#pragma tfuse coarsen
__global__ void scale(float *o, float s) { o[blockIdx.x * blockDim.x + threadIdx.x] *= s; }

int main() {
  parent<<<1, 1>>>(nullptr);
  scale<<<4, 32>>>(nullptr, 2.0f);
  return 0;
}
