/* Only in the fake host compiler's own include folder (as omp.h is in gcc's). */
#define HOSTCC_ONLY 1
