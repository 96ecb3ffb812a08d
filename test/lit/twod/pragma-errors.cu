// The pragma clauses factor(KX,KY) dim(x,y): a factor list needs as many
// dimensions, in the same pragma or from the command line; bad values are
// located errors naming the clause, and nothing is written.
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: not %tfuse %t.in.cu -o %t.cu 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: test ! -e %t.cu

// CHECK: {{.*}}.in.cu:23:30: error: invalid value '4,0' in clause 'factor': expected an integer from 1 to 1024 or auto, or one factor per dimension such as 4,4
// CHECK: {{.*}}.in.cu:26:39: error: invalid value 'x,x' in clause 'dim': expected x, y or z, or distinct dimensions such as x,y
// CHECK: {{.*}}.in.cu:20:1: error: kernel 'a': factor 4,4 has 2 values but dim x names 1 dimension: give one factor per dimension, e.g. factor 4,4 with dim x,y
// CHECK: {{.*}}.in.cu:29:1: error: kernel 'd': factor 8 has 1 value but dim x,y names 2 dimensions: give one factor per dimension, e.g. factor 4,4 with dim x,y
// CHECK-NOT: error:






#pragma tfuse coarsen factor(4,4)
__global__ void a(float *o) { o[blockIdx.x] = 1.0f; }

#pragma tfuse coarsen factor(4,0) dim(x,y)
__global__ void b(float *o) { o[blockIdx.x] = 1.0f; }

#pragma tfuse coarsen factor(4,4) dim(x,x)
__global__ void c(float *o) { o[blockIdx.x] = 1.0f; }

#pragma tfuse coarsen factor(8) dim(x,y)
__global__ void d(float *o) { o[blockIdx.x] = 1.0f; }
