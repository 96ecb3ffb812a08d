// Under the project's root, but included as a system header (-isystem sys):
// never edited, so its kernel is not one tfuse can coarsen.
#pragma tfuse coarsen
__global__ void in_system(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
