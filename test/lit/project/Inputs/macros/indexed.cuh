// A kernel of a header naming IDX, which each file defines before the
// #include (project/macros.test).
#pragma tfuse coarsen
__global__ void fill(float *out, int n) {
  int i = IDX;
  if (i < n)
    out[i] = 1.0f;
}
