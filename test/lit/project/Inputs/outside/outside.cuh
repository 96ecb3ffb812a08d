// Outside the project's root (project/outputs.test): never edited.
#pragma tfuse coarsen
__global__ void outside(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 2; }
