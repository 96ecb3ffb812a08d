// Verifies that a database entry is read as its compiler reads it: an nvcc
// command (behind a ccache launcher) with nvcc's spellings, comma lists,
// folders relative to the entry's directory and macros that nvcc defines for
// its flags (-rdc=true, -Xcompiler -D); a clang command with clang's, and
// without nvcc's macros.  The dump shows which kernel each parse saw.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t/inc %t/nv/db %t/cl/db && echo '#define SCALE 3' > %t/inc/scale.h
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" %S/Inputs/nvcc-and-clang.json.in > %t/nv/db/compile_commands.json
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" %S/Inputs/clang-entry.json.in > %t/cl/db/compile_commands.json
// RUN: %tfuse -p %t/nv/db -dump-after parse %s 2>&1 | FileCheck %s --check-prefix=NVCC
// RUN: %tfuse -p %t/cl/db -dump-after parse %s 2>&1 | FileCheck %s --check-prefix=CLANG
// RUN: %tfuse -p %t/nv/db %s -o %t/out.cu
// RUN: FileCheck %s --check-prefix=OUT < %t/out.cu
// RUN: %nvcc-check -rdc=true -Xcompiler -DHOST_ONLY -I%t/inc -DFACTOR=2 -DFROM_NVCC %t/out.cu
// OUT: __global__ void nvcc_entry(unsigned int __tf_grid_x, float *a)
// NVCC-NOT: warning
// NVCC: FUNC 'nvcc_entry'
// NVCC-NOT: FUNC
// CLANG: FUNC 'clang_entry'
// CLANG-NOT: FUNC
#include "scale.h"

#if defined(FROM_NVCC) && defined(HOST_ONLY) && defined(__CUDACC_RDC__) && defined(__CUDACC_VER_MAJOR__)
#pragma tfuse coarsen
__global__ void nvcc_entry(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] *= SCALE * FACTOR; }
#elif defined(FROM_CLANG) && !defined(__CUDACC_VER_MAJOR__)
__global__ void clang_entry(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] *= SCALE * FACTOR; }
#else
__global__ void unexpected(float *a) { a[0] = 0; }
#endif
