// -o naming something that is not a regular file (a pipe, /dev/null) is
// written in place: the atomic write (a temporary renamed over the output)
// would replace the pipe or the device with a file.
// RUN: rm -rf %t && mkdir -p %t && mkfifo %t/pipe
// RUN: bash -c 'cat %t/pipe > %t/got & %tfuse %s -o %t/pipe; s=$?; wait; exit $s'
// RUN: test -p %t/pipe
// RUN: FileCheck %s < %t/got

// CHECK: {{^}}/* tfuse: coarsened by 2, block mode along x */
#pragma tfuse coarsen
__global__ void k(float *x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }

void run(float *x, int n) { k<<<n, 64>>>(x); }
