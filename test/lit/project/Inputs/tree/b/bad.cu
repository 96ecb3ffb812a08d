// Does not parse: 'undeclared_thing' is declared nowhere.  Its own 'scale'
// is no kernel: a/ok.cu's kernel of that name is in a group of its own.
namespace lib { inline void scale(int) {} }
__global__ void broken(float *x) { x[threadIdx.x] = undeclared_thing; }

void run_b(float *x) { lib::scale(1); broken<<<1, 32>>>(x); }
