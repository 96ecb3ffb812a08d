// Input for driver/parser-args.test: it parses only when include/ is on the
// include path (-I) and TFUSE_DRIVER_TEST is 7 (-D), so a successful run
// shows that both reached the parser.
#include <tfuse_driver_test.h>

#if TFUSE_DRIVER_TEST != 7
#error "TFUSE_DRIVER_TEST is not 7: -D did not reach the parser"
#endif

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = TFUSE_DRIVER_SCALE * in[i];
}

void launch(float *out, const float *in, int n) {
  scale<<<(n + 255) / 256, 256>>>(out, in, n);
}
