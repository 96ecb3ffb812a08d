// A varying local named inside a macro body that the kernel expands must be
// refused (or left intact).
// Expected to fail: tfuse accepts it and rewrites the text at the macro's
// expansion site as if it were the local's name, corrupting the statement:
//   i_0OCAL_USE = 1.0f;
//   if (__tf_ok_1) i_1OCAL_USE = 1.0f;
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

#pragma tfuse coarsen
__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#define LOCAL_USE out[i]
// CHECK: macro-varying-local.cu:[[@LINE+1]]:{{[0-9]+}}: error: 'i' differs between the copies but is used inside a macro expansion
  LOCAL_USE = 1.0f;
}
