/* A mock of the check runtime's C functions (runtime/include/tfuse/check.h)
 * that prints each call on stdout instead of checking anything: what a
 * launch written in the shape of `tfuse -check` asks of the library. */
#include <tfuse/check.h>

#include <cstdio>

extern "C" {

int tfuse_check_enabled = 1;
int tfuse_check_enabled_slow(void) { return tfuse_check_enabled; }

struct tfuse_check_launch {
  const char *kernel;
};
static tfuse_check_launch the_launch;

tfuse_check_launch *tfuse_check_begin(const char *kernel, const char *site, cudaStream_t stream) {
  std::printf("begin %s %s stream=%p\n", kernel, site, (void *)stream);
  the_launch.kernel = kernel;
  return &the_launch;
}

void tfuse_check_track(tfuse_check_launch *c, const void *p, int kind, size_t elem_size,
                       const char *arg) {
  /* Indexed by the element kinds of check.h: bytes, float, double. */
  static const char *const kind_name[] = {"bytes", "float", "double"};
  std::printf("track %s %s p=%p kind=%s size=%zu\n", c->kernel, arg, p,
              kind >= 0 && kind <= 2 ? kind_name[kind] : "unknown", elem_size);
}

void tfuse_check_original_done(tfuse_check_launch *c) { std::printf("original_done %s\n", c->kernel); }
void tfuse_check_coarsened_done(tfuse_check_launch *c) {
  std::printf("coarsened_done %s\n", c->kernel);
}
void tfuse_check_abandon(tfuse_check_launch *c) { std::printf("abandon %s\n", c->kernel); }
int tfuse_check_again(tfuse_check_launch *c) {
  std::printf("again %s\n", c->kernel);
  return 0;
}
void tfuse_check_again_done(tfuse_check_launch *c) { std::printf("again_done %s\n", c->kernel); }

} /* extern "C" */
