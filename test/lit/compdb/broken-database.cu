// Verifies that a malformed or absent compile_commands.json is reported in
// one line of our own (libclang's YAML messages are not shown).
// RUN: rm -rf %t && mkdir -p %t/broken %t/empty && echo '[{' > %t/broken/compile_commands.json
// RUN: not %tfuse -p %t/broken %s 2>&1 | FileCheck %s -DDIR=%t/broken
// RUN: not %tfuse -p %t/empty %s 2>&1 | FileCheck %s -DDIR=%t/empty
// CHECK-NOT: YAML
// CHECK: tfuse: error: cannot load a compilation database from '[[DIR]]': compile_commands.json is missing or not valid JSON
// CHECK-NOT: LIBCLANG
#pragma tfuse coarsen
__global__ void k(float *a) { a[blockIdx.x] = 0; }
