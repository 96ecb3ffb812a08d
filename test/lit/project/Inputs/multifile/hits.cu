__device__ unsigned int hits;
