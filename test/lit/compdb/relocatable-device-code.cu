// Relocatable device code from a database entry: an nvcc command's -rdc=true
// (as cuda-samples' CMake writes it) and a clang command's -fgpu-rdc
// (the last of -fgpu-rdc and -fno-gpu-rdc counting) reach the parser as
// -fgpu-rdc, which `parent`'s launch from the device needs; without them the
// file does not parse, as neither compiler compiles it.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t/nv %t/cl %t/cloff %t/none
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" -e "s|@CC@|/usr/local/cuda/bin/nvcc|" -e "s|@RDC@|-rdc=true|" %S/Inputs/rdc-entries.json.in > %t/nv/compile_commands.json
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" -e "s|@CC@|/usr/bin/clang++|" -e "s|@RDC@|-fgpu-rdc|" %S/Inputs/rdc-entries.json.in > %t/cl/compile_commands.json
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" -e "s|@CC@|/usr/bin/clang++|" -e "s|@RDC@|-fgpu-rdc -fno-gpu-rdc|" %S/Inputs/rdc-entries.json.in > %t/cloff/compile_commands.json
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" -e "s|@CC@|/usr/local/cuda/bin/nvcc|" -e "s|@RDC@||" %S/Inputs/rdc-entries.json.in > %t/none/compile_commands.json
// RUN: %tfuse -factor 2 -p %t/nv %s -o %t/nv.cu
// RUN: FileCheck %s < %t/nv.cu
// RUN: %nvcc-check -rdc=true %t/nv.cu
// RUN: %tfuse -factor 2 -p %t/cl %s -o %t/cl.cu
// RUN: FileCheck %s < %t/cl.cu
// RUN: not %tfuse -factor 2 -p %t/cloff %s -o %t/cloff.cu 2>&1 | FileCheck %s --check-prefix=NORDC
// RUN: not %tfuse -factor 2 -p %t/none %s -o %t/none.cu 2>&1 | FileCheck %s --check-prefix=NORDC
// NORDC: relocatable-device-code.cu:[[@LINE+7]]:{{[0-9]+}}: error: kernel launch from __device__ or __global__ function requires relocatable device code

// CHECK-LABEL: __global__ void scale(unsigned int __tf_grid_x, float *o)
// CHECK: o[(blockIdx.x * 2) * blockDim.x + threadIdx.x] *= 2.0f;
__global__ void child(float *o) { o[threadIdx.x] = 1.0f; }
__global__ void parent(float *o) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(o);
}
#pragma tfuse coarsen
__global__ void scale(float *o) { o[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }
