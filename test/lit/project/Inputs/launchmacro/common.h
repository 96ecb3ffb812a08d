// The project's launch macros, in a header every file includes.
#pragma once
#include <cstdio>
#define LAUNCH(kernel, grid, block, ...) kernel<<<grid, block>>>(__VA_ARGS__)
#define LAUNCH_CHECKED(kernel, grid, block, ...)                                                     \
  do {                                                                                               \
    kernel<<<grid, block>>>(__VA_ARGS__);                                                            \
    cudaError_t e_ = cudaGetLastError();                                                             \
    if (e_ != cudaSuccess)                                                                           \
      std::printf("launch failed: %s\n", cudaGetErrorString(e_));                                    \
  } while (0)
