// A helper of a header of the project that reads the thread index
// (project/header-helper.test).
#pragma once
__device__ inline int tid() { return blockIdx.x * blockDim.x + threadIdx.x; }
