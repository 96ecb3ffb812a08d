// A configuration header outside the project's root (not rewritten, not a
// system header): its aliases of the target decide what the device
// compiles, under names that do not say so.
#ifndef TARGET_ALIAS_CONFIG_H
#define TARGET_ALIAS_CONFIG_H
#define CFG_ARCH __CUDA_ARCH__
#if CFG_ARCH >= 800
#define CFG_LANE (threadIdx.x & 31)
#else
#define CFG_LANE 0
#endif
#define CFG_SAME(i) ((i) & 31)
__device__ inline unsigned cfg_lane_of() { return CFG_LANE; }
#endif
