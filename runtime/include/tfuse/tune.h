/* tfuse tuning runtime: the launch-side half of `tfuse -factor auto`.
 *
 * A file written by `tfuse -factor auto` contains this text after the
 * prelude and <tfuse/check.h>.  Each kernel k tuned there is emitted once per
 * candidate (k__tf_k1 the original, k__tf_bx4 block mode along x by 4, ...),
 * and every launch of k becomes
 *
 *   static const tfuse_tune_cand cands[] = {{0, 0, 1u, "original"}, {1, 0, 4u, "block.x:4"}, ...};
 *   static tfuse_tune_site site = {"k", "HASH", "file.cu:42", N, cands, 0};
 *   auto launch = [&](int c) { switch (c) { case 0: k__tf_k1<<<...>>>(...); ... } };
 *   ::tfuse_rt::Tune t(&site, grid, block, smem, stream);
 *   if (t.tuning()) { t.track(ptr_arg, "name"); ...; t.tune(launch); }
 *   launch(t.choice());
 *
 * Tune picks the candidate for the launch's key (kernel, with the
 * enclosing function's instantiation where the launch depends on a host
 * template's parameters, HASH of the variants' source, grid, block,
 * dynamic shared size, device name and SM count): a decision already taken in this process (one test when the site
 * sees the same key again), else one from the wisdom file, else it tunes:
 * the launch snapshots the allocations of its writable pointer arguments,
 * runs and times every candidate on them (restored before each run) and
 * compares what each wrote with what the original wrote; a candidate that
 * differs or fails is disqualified.  The fastest remaining one wins, memory
 * is restored, and `launch(t.choice())` runs the winner for real.  See
 * runtime/src/tune.cpp for the environment variables and the wisdom file.
 *
 * The work is done by the C functions below, in runtime/src/tune.cpp (it
 * needs -lcuda).  Also installed as <tfuse/tune.h>. */
#ifndef TFUSE_TUNE_H
#define TFUSE_TUNE_H
#include <cstddef>
#include <cuda_runtime.h>
#ifndef TFUSE_CHECK_H /* element kinds (check_elem); emitted files carry its text already */
#include "check.h"
#endif

extern "C" {

/* One candidate: mode 0 the original, 1 block mode, 2 thread mode, 3
 * thread mode that needs whole warps (blockDim / K a multiple of 32).
 * divides_smem: block mode dividing an extern __shared__ array among its
 * logical blocks, launched with `factor` shares of the launch's dynamic
 * size (each rounded up to 16 bytes); kernel: that variant, for its static
 * shared size and the opt-in above 48 KB, or 0 where the launch cannot
 * name it (then the shares must fit in 48 KB). */
typedef struct {
  int mode, dim;
  unsigned int factor;
  const char *label;
  int divides_smem;
  const void *kernel;
} tfuse_tune_cand;

/* One launch site.  The emitted code fills the first six or seven fields;
 * the rest is the runtime's, zero at start: the last key seen here and its
 * choice, and the launches of that key not yet counted into the runtime's
 * record of it (`counted`), for TFUSE_TUNE_REPORT's launch counts. */
typedef struct {
  const char *kernel, *hash, *site;
  int ncand;
  const tfuse_tune_cand *cand;
  const char *untunable; /* why the kernel must not be tuned, or 0 */
  const char *instance;  /* a launch in a host template whose kernel depends on the template's parameters: the
                            enclosing function's __PRETTY_FUNCTION__, so that each instantiation has its own key;
                            or 0 */
  int cached;            /* 1: last_* hold a decision */
  int last_choice, last_device;
  unsigned int last_shape[6];
  size_t last_smem;
  unsigned long long launches;
  void *counted;
} tfuse_tune_site;

typedef struct tfuse_tune_launch tfuse_tune_launch;

/* The candidate to run; sets *tune when this launch must be tuned first
 * (then tfuse_tune_track each writable argument and tfuse_tune_run). */
int tfuse_tune_choose(tfuse_tune_site *s, dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                      tfuse_tune_launch **tune);
void tfuse_tune_track(tfuse_tune_launch *t, const void *p, int kind, size_t elem_size, const char *arg);
/* Tunes: runs launch(ctx, c) for the candidates; returns the winner and
 * frees t.  Memory is as before the launch when it returns. */
int tfuse_tune_run(tfuse_tune_launch *t, void (*launch)(void *ctx, int cand), void *ctx);

} /* extern "C" */

namespace tfuse_rt {

class Tune {
public:
  Tune(tfuse_tune_site *s, dim3 g, dim3 b, size_t smem, cudaStream_t stream) : t_(0) {
    int dev = 0;
    cudaGetDevice(&dev);
    if (s->cached && s->last_device == dev && s->last_smem == smem && s->last_shape[0] == g.x &&
        s->last_shape[1] == g.y && s->last_shape[2] == g.z && s->last_shape[3] == b.x && s->last_shape[4] == b.y &&
        s->last_shape[5] == b.z)
    {
      c_ = s->last_choice; /* the steady state: one comparison, and a count */
      __atomic_fetch_add(&s->launches, 1ULL, __ATOMIC_RELAXED);
    }
    else
      c_ = tfuse_tune_choose(s, g, b, smem, stream, &t_);
  }
  bool tuning() const { return t_ != 0; }
  template <class T> void track(T *p, const char *arg) {
    tfuse_tune_track(t_, (const void *)p, check_elem<T>::kind, check_elem<T>::size, arg);
  }
  template <class T> void track(const T *, const char *) {}
  void track(decltype(nullptr), const char *) {}
  template <class F> void tune(F &launch) {
    c_ = tfuse_tune_run(t_, [](void *ctx, int c) { (*(F *)ctx)(c); }, (void *)&launch);
    t_ = 0;
  }
  int choice() const { return c_; }

private:
  tfuse_tune_launch *t_;
  int c_;
  Tune(const Tune &) = delete;
  Tune &operator=(const Tune &) = delete;
};

} // namespace tfuse_rt

#endif /* TFUSE_TUNE_H */
