// Verifies that the parser sees the macros nvcc defines, asked of nvcc
// (__CUDACC__, __CUDACC_VER_MAJOR__...), so that code written for nvcc takes
// the branch it takes under nvcc: the dump shows which kernel was compiled.
// __NVCC__ is the exception: it would make CCCL's headers take paths only
// nvcc compiles (see cccl-headers.cu), so it stays undefined.  Flags that define macros under nvcc define them here too
// (--extended-lambda, -rdc=true, -G, --default-stream per-thread), and flags
// the parser does not need are dropped without a word.
// REQUIRES: nvcc
// RUN: %tfuse -dump-after parse %s 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %tfuse -v -dump-after parse %s 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: %tfuse -dump-after parse %s -- --extended-lambda -rdc=true -G --default-stream per-thread 2>&1 | FileCheck %s --check-prefix=FLAGS
// RUN: %tfuse -dump-after parse %s -- -arch=sm_80 -gencode arch=compute_80,code=sm_80 -O3 -o x.o -c -lcublas -L/nowhere -lineinfo --use_fast_math -Xcompiler -fPIC,-Wall -Xptxas -v -ccbin g++ -x cu -m64 -w 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: %tfuse -v -dump-after parse %s -- -arch=sm_80 -O3 -o x.o -c -lcublas --use_fast_math -Xcompiler -fPIC 2>&1 | FileCheck %s --check-prefix=DROPPED

// PLAIN-NOT: warning
// PLAIN: FUNC 'nvcc_branch'
// PLAIN-NOT: FUNC
// ARGS: tfuse: parsing {{.*}}nvcc-macros.cu with: {{.*}} -isystem {{[^ ]*}}/cccl {{.*}}-D__CUDACC__ {{.*}}-D__CUDACC_VER_MAJOR__={{[0-9]+}}
// ARGS-NOT: __NVCC__
// FLAGS: FUNC 'flags_branch'
// DROPPED-NOT: sm_80
// DROPPED-NOT: -O3
// DROPPED-NOT: cublas
// DROPPED-NOT: fPIC
// DROPPED: FUNC 'nvcc_branch'

#if defined(__CUDACC_EXTENDED_LAMBDA__) && defined(__CUDACC_RDC__) && defined(__CUDACC_DEBUG__) && \
    defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
__global__ void flags_branch(float *a) { a[threadIdx.x] = 0; }
#elif defined(__NVCC__)
__global__ void nvcc_defined(float *a) { a[threadIdx.x] = 0; }
#elif defined(__CUDACC__) && __CUDACC_VER_MAJOR__ >= 11 && defined(__CUDACC_VER_MINOR__) && \
    defined(__CUDACC_VER_BUILD__)
__global__ void nvcc_branch(float *a) { a[threadIdx.x] = 0; }
#else
__global__ void other_branch(float *a) { a[threadIdx.x] = 0; }
#endif
