/* tfuse check runtime: the launch-side half of `tfuse -check`.
 *
 * A file written by `tfuse -check` contains this text after the prelude.  It
 * keeps each coarsened kernel k beside the original, renamed k__tf_orig, and
 * every rewritten launch becomes
 *
 *   if (::tfuse_rt::check_on()) {
 *     ::tfuse_rt::Check c("k", "file.cu:42", stream);
 *     c.track(ptr_arg, "name");        // each pointer argument
 *     c.track_value(arg, "name");      // each argument of a class type
 *     c.track_table(ptr_arg, "name");  // a pointer argument whose elements
 *                                      // hold pointers the kernel writes through
 *     c.track_symbol(var, "name");     // each __device__ variable it writes
 *     c.blind(category, "why");        // what none of those reaches
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
 * writable pointer argument (pointers to const are not tracked), behind
 * each pointer found in the bytes of an argument of a class type, behind
 * each pointer in a table argument's elements, and the range of each
 * __device__ variable written; runs the original, keeps what it wrote,
 * restores the snapshots, runs the coarsened kernel, and compares: see
 * runtime/src/check.cpp for what is compared and reported (on stderr,
 * lines starting with "tfuse-check:").  What tfuse found the kernel may
 * write and none of these reaches is a blind spot (Check::blind): a launch
 * with one is "not checked" (with that category) unless what was compared
 * differs.
 *
 * The work is done by the C functions declared below, in the library
 * tfuse_check (libtfuse_check.a, or runtime/src/check.cpp; it needs -lcuda).
 * Also installed as <tfuse/check.h>. */
#ifndef TFUSE_CHECK_H
#define TFUSE_CHECK_H
#include <cstddef>
#include <type_traits>
#include <cuda_runtime.h>

extern "C" {

/* 0: checking off; 1: on; -1: not yet read from the environment (a launch
 * during static initialisation, before the library's initialiser ran). */
extern int tfuse_check_enabled;
/* Reads TFUSE_CHECK if tfuse_check_enabled is -1; returns it as 0 or 1. */
int tfuse_check_enabled_slow(void);

/* Element kinds, for comparisons within TFUSE_CHECK_ULP. */
enum { TFUSE_CHECK_BYTES = 0, TFUSE_CHECK_FLOAT = 1, TFUSE_CHECK_DOUBLE = 2 };

/* Why a launch is not checked (counted per category in the summary). */
enum {
  TFUSE_CHECK_HOST_MEMORY = 0, /* a pointer argument not in a device allocation */
  TFUSE_CHECK_UNTRACED = 1,    /* writes through a pointer tfuse cannot trace to what it tracks */
  TFUSE_CHECK_UNNAMED = 2,     /* a __device__ variable written that the launch cannot name */
  TFUSE_CHECK_TOO_MANY = 3,    /* more memory behind followed pointers than the check follows */
  TFUSE_CHECK_ORIGINAL = 4,    /* the coarsened kernel cannot serve the launch's shape: the original ran */
  TFUSE_CHECK_HEAP = 5,        /* allocates or frees device-heap memory: the coarsened kernel ran alone */
  TFUSE_CHECK_CATEGORIES = 6
};

/* One checked launch, from begin to coarsened_done (which frees it). */
typedef struct tfuse_check_launch tfuse_check_launch;

tfuse_check_launch *tfuse_check_begin(const char *kernel, const char *site, cudaStream_t stream);
void tfuse_check_track(tfuse_check_launch *c, const void *p, int kind, size_t elem_size,
                       const char *arg);
/* A pointer argument whose elements (elem_size bytes each) hold pointers:
 * its allocation is snapshot, and so is each allocation a word of it points
 * into (one level). */
void tfuse_check_track_table(tfuse_check_launch *c, const void *p, size_t elem_size, int pointee_kind,
                             size_t pointee_size, const char *arg);
/* An argument's bytes (a struct passed by value): each pointer-aligned word
 * that points into a device allocation has that allocation snapshot. */
void tfuse_check_track_bytes(tfuse_check_launch *c, const void *v, size_t n, const char *arg);
/* A __device__ variable: its n bytes at p (cudaGetSymbolAddress's answer,
 * e its error); follow: its words are pointers to follow as a table's,
 * to elements of pointee_kind and pointee_size. */
void tfuse_check_track_symbol(tfuse_check_launch *c, const void *p, size_t n, cudaError_t e, int kind,
                              size_t elem_size, int follow, int pointee_kind, size_t pointee_size,
                              const char *name);
/* A blind spot of this launch (a TFUSE_CHECK_* category, and what). */
void tfuse_check_blind(tfuse_check_launch *c, int category, const char *detail);
void tfuse_check_original_done(tfuse_check_launch *c);
void tfuse_check_coarsened_done(tfuse_check_launch *c);
/* Frees a launch whose coarsened_done was never called. */
void tfuse_check_abandon(tfuse_check_launch *c);
/* TFUSE_CHECK_TWICE: whether the original runs a second time, from the
 * same state, before the coarsened kernel; then again_done tells whether it
 * wrote the same (a launch whose original does not is counted apart as
 * nondeterministic, not compared). */
int tfuse_check_again(tfuse_check_launch *c);
void tfuse_check_again_done(tfuse_check_launch *c);
/* A launch of a coarsened kernel whose shape the coarsened kernel cannot
 * serve, so only the original runs (the prelude's Fallback): counted as
 * not checked, category TFUSE_CHECK_ORIGINAL. */
void tfuse_check_ran_original(const char *kernel, const char *site);
/* A launch of a kernel that allocates or frees device-heap memory (new,
 * delete, malloc, free): run twice from one state it would free twice, so
 * the coarsened kernel ran alone, unchecked. */
void tfuse_check_ran_once(const char *kernel, const char *site);

} /* extern "C" */

namespace tfuse_rt {

inline bool check_on() {
  return tfuse_check_enabled != 0 && tfuse_check_enabled_slow() != 0;
}

/* ... for a launch on `stream`: not while the stream is being captured
 * into a graph (a checked launch synchronises and copies, which capture
 * forbids, and both kernels would be captured): such a launch runs the
 * coarsened kernel alone, unchecked. */
inline bool check_on(cudaStream_t stream) {
  if (!check_on())
    return false;
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &st) != cudaSuccess) {
    (void)cudaGetLastError(); /* the legacy stream while another captures: capturing too */
    return false;
  }
  return st == cudaStreamCaptureStatusNone;
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

/* CUDA's vector types of float and double are arrays of their components
 * (float2 results a rounding apart are compared within TFUSE_CHECK_ULP). */
#define TFUSE_CHECK_VECTOR(V, S, K)                                                                                  \
  template <> struct check_elem<V> { enum { kind = K, size = sizeof(S) }; };                                        \
  template <> struct check_elem<volatile V> : check_elem<V> {};
TFUSE_CHECK_VECTOR(float1, float, TFUSE_CHECK_FLOAT)
TFUSE_CHECK_VECTOR(float2, float, TFUSE_CHECK_FLOAT)
TFUSE_CHECK_VECTOR(float3, float, TFUSE_CHECK_FLOAT)
TFUSE_CHECK_VECTOR(float4, float, TFUSE_CHECK_FLOAT)
TFUSE_CHECK_VECTOR(double1, double, TFUSE_CHECK_DOUBLE)
TFUSE_CHECK_VECTOR(double2, double, TFUSE_CHECK_DOUBLE)
TFUSE_CHECK_VECTOR(double3, double, TFUSE_CHECK_DOUBLE)
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
TFUSE_CHECK_VECTOR(double4_16a, double, TFUSE_CHECK_DOUBLE)
TFUSE_CHECK_VECTOR(double4_32a, double, TFUSE_CHECK_DOUBLE)
#endif
#undef TFUSE_CHECK_VECTOR

/* What an element that is a pointer points to (bytes for anything else). */
template <class T> struct check_pointee : check_elem<void> {};
template <class T> struct check_pointee<T *> : check_elem<typename std::remove_cv<T>::type> {};
template <class T> struct check_pointee<T *const> : check_pointee<T *> {};
template <class T> struct check_pointee<T *volatile> : check_pointee<T *> {};
template <class T> struct check_pointee<T *const volatile> : check_pointee<T *> {};

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
  /* A pointer to a struct tfuse found to hold only floats, or only doubles
   * (kind TFUSE_CHECK_FLOAT or _DOUBLE, elem_size 4 or 8): compared by field. */
  template <class T> void track_as(T *p, const char *arg, int kind, size_t elem_size) {
    tfuse_check_track(c_, (const void *)p, kind, elem_size, arg);
  }
  /* Pointers to const are not written: nothing to do. */
  template <class T> void track(const T *, const char *) {}
  void track(decltype(nullptr), const char *) {}

  /* A pointer argument whose elements hold pointers the kernel writes
   * through (a table, const or not): the table and what each entry points
   * into are snapshot. */
  template <class T> void track_table(T *p, const char *arg) {
    tfuse_check_track_table(c_, (const void *)p, sizeof(T), check_pointee<T>::kind, check_pointee<T>::size, arg);
  }
  void track_table(decltype(nullptr), const char *) {}

  /* An argument of any type: a pointer is tracked, a number has nothing to
   * snapshot, anything else (a struct by value) has its bytes scanned for
   * pointers into device allocations. */
  template <class T> void track_value(T *p, const char *arg) { track(p, arg); }
  template <class T> void track_value(const T &v, const char *arg) {
    if (std::is_arithmetic<T>::value || std::is_enum<T>::value)
      return;
    tfuse_check_track_bytes(c_, (const void *)&v, sizeof(T), arg);
  }

  /* A __device__ variable the kernel writes (follow: it holds pointers the
   * kernel writes through). */
  template <class T> void track_symbol(const T &var, const char *name, bool follow = false) {
    typedef typename std::remove_cv<typename std::remove_all_extents<T>::type>::type E;
    void *p = 0;
    cudaError_t e = cudaGetSymbolAddress(&p, var);
    tfuse_check_track_symbol(c_, p, sizeof(T), e, check_elem<E>::kind, check_elem<E>::size, follow ? 1 : 0,
                             check_pointee<E>::kind, check_pointee<E>::size, name);
  }

  /* What the kernel may write that none of the above reaches. */
  void blind(int category, const char *detail) { tfuse_check_blind(c_, category, detail); }

  void original_done() { tfuse_check_original_done(c_); }
  /* TFUSE_CHECK_TWICE: the original's second run, between these two. */
  bool again() { return tfuse_check_again(c_) != 0; }
  void again_done() { tfuse_check_again_done(c_); }
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
