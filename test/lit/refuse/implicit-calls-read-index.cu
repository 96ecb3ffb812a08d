// Code that runs with no call in the text and reads an index coarsening
// changes has no text for tfuse to renumber: a local's destructor, a
// constructor's member initializers, and, in a template, a local whose
// class tfuse cannot tell (any constructor or destructor of the project;
// a construction used as a value: any conversion too).  Each is refused
// where it runs, naming a function that reads it.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

struct Mark {
  int *p;
  __device__ ~Mark() { p[blockIdx.x] = 1; }
};
struct Pos {
  unsigned v;
  __device__ Pos() : v(threadIdx.x + blockIdx.x * 1000u) {}
};

#pragma tfuse coarsen
__global__ void k1(int *out) {
  // CHECK: implicit-calls-read-index.cu:[[@LINE+1]]:3: error: 'm' may run code with no call in the text, and tfuse cannot tell which class's: a destructor of the project, '~Mark', reads blockIdx.x, which coarsening changes, and no rewrite reaches it there
  Mark m{out};
  out[threadIdx.x] = 1;
}

#pragma tfuse coarsen
__global__ void k2(int *out) {
  // CHECK: implicit-calls-read-index.cu:[[@LINE+1]]:7: error: 'Pos' reads blockIdx.x, which coarsening changes; tfuse does not clone member functions or constructors per copy; pass the value as an argument instead
  Pos p;
  out[blockIdx.x * blockDim.x + threadIdx.x] = (int)p.v;
}

#pragma tfuse coarsen
template <class T>
__global__ void k3(int *out) {
  // CHECK: implicit-calls-read-index.cu:[[@LINE+1]]:3: error: 'p' may run code with no call in the text, and tfuse cannot tell which class's: a constructor or destructor of the project, '{{~Mark|Pos}}', reads blockIdx.x
  T p = T();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (int)p.v;
}

int main() {
  int *b = 0;
  k1<<<13, 96>>>(b);
  k2<<<13, 96>>>(b);
  k3<Pos><<<13, 96>>>(b);
}
