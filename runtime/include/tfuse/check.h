/* tfuse check runtime: the launch-side half of `tfuse -check`.
 *
 * A file written by `tfuse -check` contains this text after the prelude.  It
 * keeps each coarsened kernel k beside the original, renamed k__tf_orig, and
 * every rewritten launch becomes
 *
 *   if (::tfuse_rt::check_on()) {
 *     ::tfuse_rt::Check c("k", "file.cu:42", stream);
 *     c.track(ptr_arg, "name");        // each pointer argument
 *     k__tf_orig<<<...>>>(...);         // the original
 *     c.original_done();
 *     k<<<...>>>(...);                  // the coarsened kernel
 *     c.coarsened_done();
 *   } else {
 *     k<<<...>>>(...);                  // the coarsened kernel alone
 *   }
 *
 * check_on() is true when the environment variable TFUSE_CHECK is set, not
 * empty and not "0"; it is one test of a flag that the library sets when the
 * program starts.  Check snapshots the whole device allocation behind each
 * writable pointer argument (pointers to const are not tracked), runs the
 * original, keeps what it wrote, restores the snapshot, runs the coarsened
 * kernel, and compares: see runtime/src/check.cpp for what is compared and
 * reported (on stderr, lines starting with "tfuse-check:").
 *
 * The work is done by the C functions declared below, in the library
 * tfuse_check (libtfuse_check.a, or runtime/src/check.cpp; it needs -lcuda).
 * Also installed as <tfuse/check.h>. */
#ifndef TFUSE_CHECK_H
#define TFUSE_CHECK_H
#include <cstddef>
#include <cuda_runtime.h>

extern "C" {

/* 0: checking off; 1: on; -1: not yet read from the environment (a launch
 * during static initialisation, before the library's initialiser ran). */
extern int tfuse_check_enabled;
/* Reads TFUSE_CHECK if tfuse_check_enabled is -1; returns it as 0 or 1. */
int tfuse_check_enabled_slow(void);

/* Element kinds, for comparisons within TFUSE_CHECK_ULP. */
enum { TFUSE_CHECK_BYTES = 0, TFUSE_CHECK_FLOAT = 1, TFUSE_CHECK_DOUBLE = 2 };

/* One checked launch, from begin to coarsened_done (which frees it). */
typedef struct tfuse_check_launch tfuse_check_launch;

tfuse_check_launch *tfuse_check_begin(const char *kernel, const char *site, cudaStream_t stream);
void tfuse_check_track(tfuse_check_launch *c, const void *p, int kind, size_t elem_size,
                       const char *arg);
void tfuse_check_original_done(tfuse_check_launch *c);
void tfuse_check_coarsened_done(tfuse_check_launch *c);
/* Frees a launch whose coarsened_done was never called. */
void tfuse_check_abandon(tfuse_check_launch *c);

} /* extern "C" */

namespace tfuse_rt {

inline bool check_on() {
  return tfuse_check_enabled != 0 && tfuse_check_enabled_slow() != 0;
}

/* Kind and size of the element a tracked T * points to; void * is bytes. */
template <class T> struct check_elem {
  enum { kind = TFUSE_CHECK_BYTES, size = sizeof(T) };
};
template <> struct check_elem<float> { enum { kind = TFUSE_CHECK_FLOAT, size = sizeof(float) }; };
template <> struct check_elem<volatile float> : check_elem<float> {};
template <> struct check_elem<double> { enum { kind = TFUSE_CHECK_DOUBLE, size = sizeof(double) }; };
template <> struct check_elem<volatile double> : check_elem<double> {};
template <> struct check_elem<void> { enum { kind = TFUSE_CHECK_BYTES, size = 1 }; };
template <> struct check_elem<volatile void> : check_elem<void> {};

class Check {
public:
  Check(const char *kernel, const char *site, cudaStream_t stream)
      : c_(tfuse_check_begin(kernel, site, stream)) {}
  ~Check() {
    if (c_)
      tfuse_check_abandon(c_);
  }

  /* A writable pointer argument: its allocation is snapshot and compared. */
  template <class T> void track(T *p, const char *arg) {
    tfuse_check_track(c_, (const void *)p, check_elem<T>::kind, check_elem<T>::size, arg);
  }
  /* Pointers to const are not written: nothing to do. */
  template <class T> void track(const T *, const char *) {}
  void track(decltype(nullptr), const char *) {}

  void original_done() { tfuse_check_original_done(c_); }
  void coarsened_done() {
    tfuse_check_coarsened_done(c_);
    c_ = 0;
  }

private:
  tfuse_check_launch *c_;
  Check(const Check &) = delete;
  Check &operator=(const Check &) = delete;
};

} // namespace tfuse_rt

#endif /* TFUSE_CHECK_H */
