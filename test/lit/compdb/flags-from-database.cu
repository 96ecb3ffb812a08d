// Verifies that -p BUILD_DIR takes include paths (made absolute against the
// entry's directory) and defines from BUILD_DIR/compile_commands.json: the
// input only parses with them, and the kernel is coarsened.
// RUN: rm -rf %t && mkdir -p %t/inc && echo '#define SCALE 3' > %t/inc/scale.h
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" %S/Inputs/compile_commands.json.in > %t/compile_commands.json
// RUN: not %tfuse %s -o %t/plain.cu 2>&1 | FileCheck %s --check-prefix=NODB
// RUN: %tfuse -p %t %s -o %t/out.cu
// RUN: FileCheck %s < %t/out.cu
// RUN: %nvcc-check -I%t/inc -DFACTOR=2 %t/out.cu
#include "scale.h"
// NODB: error: 'scale.h' file not found
// CHECK-LABEL: __global__ void k(unsigned int __tf_grid_x, float *a)
// CHECK: a[(blockIdx.x * 2) * blockDim.x + threadIdx.x] *= SCALE * FACTOR;
// CHECK: if (__tf_ok_1) a[(blockIdx.x * 2 + 1) * blockDim.x + threadIdx.x] *= SCALE * FACTOR;
#pragma tfuse coarsen
__global__ void k(float *a) {
  a[blockIdx.x * blockDim.x + threadIdx.x] *= SCALE * FACTOR;
}
