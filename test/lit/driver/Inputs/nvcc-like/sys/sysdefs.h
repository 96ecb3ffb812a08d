#define SYS_FACTOR 3
