/* Also in nvcc's own system folder (nvcc-shadowed.h), which wins. */
#define SHADOWED_FROM_HOSTCC 1
