// Included only by the device compilation (refuse/target-headers.cu).
#pragma once
__device__ inline int lane_of() { return threadIdx.x; }
__device__ inline int pick(int v) { return v + (int)threadIdx.x; }
