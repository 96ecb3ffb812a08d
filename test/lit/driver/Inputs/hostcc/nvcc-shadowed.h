/* shadowed.h of nvcc's own system folder: found before the host compiler's. */
#define SHADOWED_FROM_NVCC 1
