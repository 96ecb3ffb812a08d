// Included only by the host compilation (refuse/target-headers.cu).
#pragma once
__device__ inline int lane_of() { return 0; }
