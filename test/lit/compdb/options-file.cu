// Verifies that options in response files reach the parser: CMake writes a
// CUDA target's include folders to an --options-file (relative to the
// entry's directory), clang reads @FILE.  Without them the input does not
// parse; nvcc's file is also read when nvcc is not asked (no nvcc).
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t/inc %t/nv/CMakeFiles/k.dir %t/cl && echo '#define SCALE 3' > %t/inc/scale.h
// RUN: printf -- '-I../inc\n-DFROM_RSP=1\n' > %t/nv/CMakeFiles/k.dir/includes_CUDA.rsp
// RUN: printf -- '-I ../inc -DFROM_RSP=1\n' > %t/cl/includes.rsp
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" %S/Inputs/options-file.json.in > %t/nv/compile_commands.json
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%s|g" %S/Inputs/options-file-clang.json.in > %t/cl/compile_commands.json
// RUN: %tfuse -p %t/nv %s -o %t/nv.cu
// RUN: %tfuse -p %t/cl %s -o %t/cl.cu
// RUN: diff %t/nv.cu %t/cl.cu
// RUN: FileCheck %s < %t/nv.cu
// RUN: mkdir -p %t/cuda/bin && ln -s %cuda-path/include %t/cuda/include
// RUN: env TFUSE_NO_PCH=1 %tfuse -cuda-path %t/cuda -p %t/nv %s -o %t/nonvcc.cu
// RUN: diff %t/nv.cu %t/nonvcc.cu
// CHECK: a[(blockIdx.x * 2) * blockDim.x + threadIdx.x] *= SCALE * FROM_RSP;
#include "scale.h"
#pragma tfuse coarsen
__global__ void k(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] *= SCALE * FROM_RSP; }
