// Verifies that a file the database does not list is an error that says so
// (libclang would otherwise infer flags from a neighbouring entry), with
// exit status 1 and no output file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed -e "s|@DIR@|%t|g" -e "s|@SRC@|%t/other.cu|g" %S/Inputs/compile_commands.json.in > %t/compile_commands.json
// RUN: not %tfuse -p %t %s -o %t/out.cu 2>&1 | FileCheck %s -DFILE=%s -DDIR=%t
// RUN: test ! -e %t/out.cu
// CHECK: tfuse: error: '[[FILE]]' has no entry in '[[DIR]]/compile_commands.json'
#pragma tfuse coarsen
__global__ void k(float *a) { a[blockIdx.x] = 0; }
