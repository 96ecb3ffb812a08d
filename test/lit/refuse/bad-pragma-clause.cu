// Bad clauses of `#pragma tfuse coarsen` are errors located at the bad
// value or clause: a factor outside 1..1024 or not a number, a dimension
// other than x/y/z, a mode, mapping or layout that does not exist, an unknown
// clause, a missing parenthesis.  Every one is reported, and nothing is
// written.
// RUN: rm -f %t.out
// RUN: not %tfuse %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:30: error: invalid value '0' in clause 'factor': expected an integer from 1 to 1024
#pragma tfuse coarsen factor(0)
__global__ void a(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:30: error: invalid value '1025' in clause 'factor': expected an integer from 1 to 1024
#pragma tfuse coarsen factor(1025)
__global__ void b(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:27: error: invalid value 'w' in clause 'dim': expected x, y or z
#pragma tfuse coarsen dim(w)
__global__ void c(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:28: error: invalid value 'warp' in clause 'mode': expected block or thread
#pragma tfuse coarsen mode(warp)
__global__ void d(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:31: error: invalid value 'zigzag' in clause 'mapping': expected stride or consecutive
#pragma tfuse coarsen mapping(zigzag)
__global__ void e(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:30: error: invalid value 'diagonal' in clause 'layout': expected separate or interleaved
#pragma tfuse coarsen layout(diagonal)
__global__ void e2(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:23: error: unknown clause 'unroll' in '#pragma tfuse coarsen'
#pragma tfuse coarsen unroll(2)
__global__ void f(float *o) { o[blockIdx.x] = 1.0f; }

// CHECK: bad-pragma-clause.cu:[[@LINE+1]]:29: error: missing ')' in '#pragma tfuse coarsen' clause
#pragma tfuse coarsen factor(4
__global__ void g(float *o) { o[blockIdx.x] = 1.0f; }
