#define HELPER 1
