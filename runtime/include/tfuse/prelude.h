/* tfuse prelude: helpers that coarsened code and rewritten launches use.
 * tfuse copies this text to the top of every file it coarsens, so the
 * output compiles with plain nvcc; it is also installed as <tfuse/prelude.h>. */
#ifndef TFUSE_PRELUDE_H
#define TFUSE_PRELUDE_H
#ifdef __CUDACC__
/* CUDA compilers only: a rewritten header may also be included by a file
 * that the host compiler builds (a .cpp), where none of this is used and
 * CUDA's types and qualifiers are not declared. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace tfuse_rt {

template <class T> struct plain { typedef T type; };
template <class T> struct plain<T &> { typedef T type; };
template <class T> struct plain<T &&> { typedef T type; };
template <class T> struct plain<const T> { typedef T type; };
template <class T> struct plain<const T &> { typedef T type; };
/* An array (a row `a[j]` of a local array, guarded as a pointer's
 * initializer) is the pointer it decays to. */
template <class T, unsigned long N> struct plain<T[N]> { typedef T *type; };
template <class T, unsigned long N> struct plain<T (&)[N]> { typedef T *type; };
template <class T, unsigned long N> struct plain<const T (&)[N]> { typedef const T *type; };
template <class T, unsigned long N> struct plain<const T[N]> { typedef const T *type; };

/* A value-initialized T: what an inactive copy's guarded load yields.
 * Named with tfuse's reserved prefix: TFUSE_GUARD expands it in the
 * program's text, where a macro of the program's (HeCBench md's
 * `#define zero make_float4(...)`) would replace a plain name. */
template <class T, class = void> struct zero_of {
  typedef typename plain<T>::type type;
};
template <class...> struct always_void {
  typedef void type;
};
/* A proxy reference that has no value of its own (thrust's
 * device_reference<T>, a value_type and no default constructor): the zero
 * is its value type's, to which the guarded expression converts. */
template <class T>
struct zero_of<T, typename always_void<typename plain<T>::type::value_type,
                                       typename std::enable_if<!std::is_default_constructible<
                                           typename plain<T>::type>::value>::type>::type> {
  typedef typename plain<T>::type::value_type type;
};
template <class T> __host__ __device__ inline typename zero_of<T>::type __tf_zero() {
  return typename zero_of<T>::type();
}

inline unsigned int &component(dim3 &v, int d) { return d == 0 ? v.x : d == 1 ? v.y : v.z; }

/* Block mode: K logical blocks per block along d, rounding up.  The kernel
 * receives the original extent, so copies past it stay inactive. */
inline dim3 coarsen_grid(dim3 grid, int d, unsigned int k) {
  unsigned int &g = component(grid, d);
  g = (g + k - 1) / k;
  return grid;
}

inline unsigned int grid_extent(dim3 grid, int d) { return component(grid, d); }

/* Block mode: a cluster of c logical blocks along d holds c / K merged
 * blocks where K divides c (the logical blocks of the original's
 * clusters), else one: the grid of merged blocks must be a multiple of the
 * cluster, and a coarsened kernel reads nothing of its cluster (tfuse
 * refuses one that does). */
inline unsigned int coarsen_cluster(unsigned int c, unsigned int k) { return c % k == 0 ? c / k : 1u; }

#if CUDART_VERSION >= 11080
/* cudaLaunchKernelEx in block mode: the configuration's attributes copied
 * into `to`, which the configuration then points at, each cluster
 * dimension (and preferred cluster dimension) coarsened along d. */
struct LaunchAttrs {
  cudaLaunchAttribute a[16];
};
inline void coarsen_cluster_attrs(cudaLaunchConfig_t &cfg, LaunchAttrs &to, int d, unsigned int k,
                                  const char *kernel, const char *site) {
  if (cfg.numAttrs == 0 || !cfg.attrs)
    return;
  if (cfg.numAttrs > 16) {
    std::fprintf(stderr,
                 "tfuse: error: %s: cudaLaunchKernelEx of '%s' with %u launch attributes; tfuse rescales the "
                 "cluster dimension among at most 16\n",
                 site, kernel, cfg.numAttrs);
    std::exit(EXIT_FAILURE);
  }
  for (unsigned int i = 0; i < cfg.numAttrs; i++) {
    to.a[i] = cfg.attrs[i];
    cudaLaunchAttribute &at = to.a[i];
    if (at.id == cudaLaunchAttributeClusterDimension) {
      unsigned int &c = d == 0 ? at.val.clusterDim.x : d == 1 ? at.val.clusterDim.y : at.val.clusterDim.z;
      c = coarsen_cluster(c, k);
    }
#if CUDART_VERSION >= 12080
    else if (at.id == cudaLaunchAttributePreferredClusterDimension) {
      unsigned int &c = d == 0   ? at.val.preferredClusterDim.x
                        : d == 1 ? at.val.preferredClusterDim.y
                                 : at.val.preferredClusterDim.z;
      c = coarsen_cluster(c, k);
    }
#endif
  }
  cfg.attrs = to.a;
}
#endif

/* Where a launch's shape cannot be served by the coarsened kernel (a
 * block extent K does not divide, warps it would split, more registers or
 * shared memory than the device gives the merged block), the launch runs
 * the original kernel, which tfuse keeps beside the coarsened one as
 * NAME__tf_orig: the program behaves as before.  Each such launch site has
 * one Fallback record (a static of the site, constant-initialised);
 * TFUSE_REPORT=1 prints at exit, for each site that ran the original, how
 * many launches did and why (the first one's shape). */
enum FallbackWhy { FALLBACK_BLOCK = 1, FALLBACK_WARPS, FALLBACK_REGISTERS, FALLBACK_SHARED, FALLBACK_SHARED_UNNAMED };
struct Fallback {
  const char *kernel, *site;
  unsigned long long count;
  int why, dim;
  unsigned long long a, b, c; /* the shape: (extent, K), (threads, registers, most), (bytes, most) */
  Fallback *next;
  /* Constant initialisation (no guard at the launch), and commas inside
   * parentheses, so a launch in a macro's argument stays one argument. */
  constexpr Fallback(const char *kernel_, const char *site_)
      : kernel(kernel_), site(site_), count(0), why(0), dim(0), a(0), b(0), c(0), next(nullptr) {}
};

inline Fallback *&fallback_sites() {
  static Fallback *head;
  return head;
}

inline void fallback_print() {
  for (Fallback *f = fallback_sites(); f; f = f->next) {
    char why[200];
    const char d = "xyz"[f->dim];
    switch (f->why) {
    case FALLBACK_BLOCK:
      std::snprintf(why, sizeof why, "blockDim.%c = %llu is not a multiple of the coarsening factor %llu", d, f->a,
                    f->b);
      break;
    case FALLBACK_WARPS:
      std::snprintf(why, sizeof why,
                    "blockDim.%c = %llu over the factor %llu is not a whole number of warps, which the coarsened "
                    "kernel's warp-synchronous code needs",
                    d, f->a, f->b);
      break;
    case FALLBACK_REGISTERS:
      std::snprintf(why, sizeof why,
                    "%llu threads per block; the coarsened kernel uses %llu registers per thread and can run at most "
                    "%llu",
                    f->a, f->b, f->c);
      break;
    case FALLBACK_SHARED:
      std::snprintf(why, sizeof why, "%llu bytes of shared memory per block coarsened, over the %llu this device allows",
                    f->a, f->b);
      break;
    default:
      std::snprintf(why, sizeof why,
                    "%llu bytes of dynamic shared memory coarsened, over the 48 KB a launch that does not name the "
                    "kernel's template arguments can ask for",
                    f->a);
      break;
    }
    std::fprintf(stderr, "tfuse: %s: %llu %s of '%s' ran the original kernel: %s\n", f->site, f->count,
                 f->count == 1 ? "launch" : "launches", f->kernel, why);
  }
}

inline bool report_on() {
  static int on = -1;
  if (on < 0) {
    const char *e = std::getenv("TFUSE_REPORT");
    on = e && *e && std::strcmp(e, "0") != 0;
  }
  return on != 0;
}

/* Counts a launch of the site that runs the original; false. */
inline bool ran_original(Fallback &f, int why, int dim, unsigned long long a, unsigned long long b,
                         unsigned long long c) {
  if (__atomic_fetch_add(&f.count, 1ull, __ATOMIC_RELAXED) == 0) {
    f.why = why;
    f.dim = dim;
    f.a = a;
    f.b = b;
    f.c = c;
    Fallback *head = __atomic_load_n(&fallback_sites(), __ATOMIC_ACQUIRE);
    do
      f.next = head;
    while (!__atomic_compare_exchange_n(&fallback_sites(), &head, &f, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    static const bool registered = report_on() && std::atexit(fallback_print) == 0;
    (void)registered;
  }
  return false;
}

/* Thread mode: whether the coarsened kernel serves a launch with this
 * block along d: K divides the extent and, for a kernel with
 * warp-synchronous code (warps), the extent over K is whole warps. */
inline bool serves_block(dim3 block, int d, unsigned int k, bool warps, Fallback &f) {
  unsigned int b = component(block, d);
  if (b % k != 0)
    return ran_original(f, FALLBACK_BLOCK, d, b, k, 0);
  if (warps && b / k % 32 != 0)
    return ran_original(f, FALLBACK_WARPS, d, b, k, 0);
  return true;
}

/* A kernel's attributes (registers, static shared memory), asked once per
 * kernel for the first 32 kernels (later ones ask each time); false where
 * the runtime does not answer (the launch then reports why). */
template <class F> inline bool kernel_attributes(F *kernel, cudaFuncAttributes &fa) {
  /* Launches may come from several host threads: a slot is claimed with
   * an atomic count, its attributes written before its kernel is
   * published, so a reader that finds the kernel finds its attributes. */
  static const void *asked[32];
  static cudaFuncAttributes known[32];
  static int n;
  int have = __atomic_load_n(&n, __ATOMIC_ACQUIRE);
  for (int i = 0; i < have && i < 32; i++)
    if (__atomic_load_n(&asked[i], __ATOMIC_ACQUIRE) == (const void *)kernel) {
      fa = known[i];
      return true;
    }
  if (cudaFuncGetAttributes(&fa, kernel) != cudaSuccess) {
    (void)cudaGetLastError(); /* the program's own error checks must not see the query's */
    return false;
  }
  int slot = have < 32 ? __atomic_fetch_add(&n, 1, __ATOMIC_ACQ_REL) : 32; /* past 32 kernels: asked each time */
  if (slot < 32) {
    known[slot] = fa;
    __atomic_store_n(&asked[slot], (const void *)kernel, __ATOMIC_RELEASE);
  }
  return true;
}

/* Block mode: whether the merged block fits the device's registers: a
 * block over 1024 threads, which no kernel can run, is left to the
 * launch's own error, as the original's would be. */
template <class F> inline bool serves_threads(F *kernel, dim3 block, Fallback &f) {
  cudaFuncAttributes fa;
  if (!kernel_attributes(kernel, fa))
    return true;
  unsigned int threads = block.x * block.y * block.z;
  if (threads <= 1024 && threads > (unsigned int)fa.maxThreadsPerBlock)
    return ran_original(f, FALLBACK_REGISTERS, 0, threads, fa.numRegs, fa.maxThreadsPerBlock);
  return true;
}

/* Block mode: whether K dynamic shares (bytes) and the kernel's static
 * shared memory fit what the device gives a block (with opt-in; within
 * 48 KB without asking the device). */
template <class F> inline bool serves_shared(F *kernel, size_t bytes, Fallback &f) {
  cudaFuncAttributes fa;
  size_t fixed = kernel_attributes(kernel, fa) ? fa.sharedSizeBytes : 0;
  if (bytes + fixed <= 48 * 1024)
    return true;
  int dev = 0, optin = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (optin > 0 && bytes + fixed > (size_t)optin)
    return ran_original(f, FALLBACK_SHARED, 0, bytes + fixed, optin, 0);
  return true;
}

/* Block mode, a template kernel whose launch deduces its arguments: the
 * opt-in above 48 KB needs the kernel's address, which the launch does
 * not spell, so K shares must fit in 48 KB. */
inline bool serves_shared_unnamed(size_t bytes, Fallback &f) {
  if (bytes > 48 * 1024)
    return ran_original(f, FALLBACK_SHARED_UNNAMED, 0, bytes, 0, 0);
  return true;
}

/* Thread mode: K logical threads per thread along d.  The block extent
 * must divide by K (CUDA programming guide: blockDim is fixed per launch,
 * so a remainder has no thread to run it). */
inline dim3 coarsen_block(dim3 block, int d, unsigned int k, const char *kernel, const char *site) {
  unsigned int &b = component(block, d);
  if (b % k != 0) {
    std::fprintf(stderr,
                 "tfuse: error: %s: launch of '%s' with blockDim.%c = %u, which is not a multiple "
                 "of the coarsening factor %u\n",
                 site, kernel, "xyz"[d], b, k);
    std::exit(EXIT_FAILURE);
  }
  b /= k;
  return block;
}

/* Thread mode for a kernel with warp-synchronous code (shuffles, votes,
 * tiles, lane arithmetic): with the stride mapping, copy r of a physical
 * warp is the whole logical warp (t + r * blockDim / K) / 32, lane for
 * lane, only when blockDim / K is a multiple of 32. */
inline dim3 coarsen_block_warps(dim3 block, int d, unsigned int k, const char *kernel, const char *site) {
  dim3 b = coarsen_block(block, d, k, kernel, site);
  if (component(b, d) % 32 != 0) {
    std::fprintf(stderr,
                 "tfuse: error: %s: launch of '%s' with blockDim.%c = %u, whose 1/%u, %u, is not a multiple of the "
                 "warp size (32): the coarsened kernel's warp-synchronous code needs whole warps\n",
                 site, kernel, "xyz"[d], component(block, d), k, component(b, d));
    std::exit(EXIT_FAILURE);
  }
  return b;
}

/* Block mode: each thread of the merged block does the work of K logical
 * blocks' threads, so it may need more registers than the original's, and
 * a block of the original's size may no longer fit the register file ("too
 * many resources requested for launch").  Stop with the reason before such
 * a launch; a block over 1024 threads, which no kernel can run, is left to
 * the launch's own error.  (A launch that names the kept original
 * dispatches instead: serves_threads.) */
template <class F>
inline void block_fits(F *kernel, dim3 block, unsigned int k, const char *name, const char *site) {
  cudaFuncAttributes fa;
  if (!kernel_attributes(kernel, fa))
    return; /* the launch reports it */
  unsigned int threads = block.x * block.y * block.z;
  if (threads <= 1024 && threads > (unsigned int)fa.maxThreadsPerBlock) {
    std::fprintf(stderr,
                 "tfuse: error: %s: launch of '%s' with %u threads per block: coarsened by %u, the kernel uses %d "
                 "registers per thread and can run at most %d threads per block on this device; use a smaller "
                 "-factor\n",
                 site, name, threads, k, fa.numRegs, fa.maxThreadsPerBlock);
    std::exit(EXIT_FAILURE);
  }
}

/* Block mode with a replicated extern __shared__ array: each logical
 * block's share of the dynamic shared memory, rounded up to 16 bytes so
 * every share starts aligned as the original's did. */
inline unsigned int dyn_share(size_t bytes) { return (unsigned int)((bytes + 15) / 16 * 16); }

/* More shared memory than the device allows (K dynamic shares and the
 * kernel's static bytes) would make the launch fail: stop with the reason
 * rather than let the program go on with results never computed. */
template <class F> inline void dyn_shared_check(F *kernel, size_t bytes) {
  int dev = 0, optin = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  cudaFuncAttributes fa;
  size_t fixed = kernel_attributes(kernel, fa) ? fa.sharedSizeBytes : 0;
  if (optin > 0 && bytes + fixed > (size_t)optin) {
    std::fprintf(stderr,
                 "tfuse: error: a launch of a coarsened kernel needs %zu bytes of shared memory per block (its "
                 "logical blocks' dynamic shares and %zu static bytes), over the %d this device allows; use a "
                 "smaller -factor\n",
                 bytes + fixed, fixed, optin);
    std::exit(EXIT_FAILURE);
  }
}

/* K shares over 48 KB for a template kernel whose launch deduces its
 * arguments: the opt-in (cudaFuncSetAttribute) needs the kernel's address,
 * which such a launch does not spell, so the launch would fail with
 * "invalid argument".  Stop with the reason instead. */
inline void dyn_shared_unnamed(size_t bytes, unsigned int k, const char *name, const char *site) {
  if (bytes <= 48 * 1024)
    return;
  std::fprintf(stderr,
               "tfuse: error: %s: launch of '%s' coarsened by %u asks for %zu bytes of dynamic shared memory (a "
               "share per logical block), over the 48 KB a launch gets without cudaFuncSetAttribute, which needs "
               "the kernel's address: write the kernel's template arguments at the launch, or use a smaller "
               "-factor\n",
               site, name, k, bytes);
  std::exit(EXIT_FAILURE);
}

/* K shares may pass the 48 KB a launch gets without asking: ask for them
 * (CUDA programming guide, "Shared Memory"). */
template <class F> inline void dyn_shared_opt_in(F *kernel, size_t bytes) {
  if (bytes <= 48 * 1024)
    return;
  dyn_shared_check(kernel, bytes);
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}

/* The program's own cudaFuncSetAttribute(kernel,
 * cudaFuncAttributeMaxDynamicSharedMemorySize, n), block mode: the value,
 * K shares of n, after the same check. */
template <class F> inline int dyn_shared_limit(F *kernel, size_t bytes) {
  dyn_shared_check(kernel, bytes);
  return (int)bytes;
}

/* -factor auto, the program's cudaFuncSetAttribute(kernel,
 * cudaFuncAttributeMaxDynamicSharedMemorySize, n) passed on to a variant:
 * bytes (K shares of n where the variant divides it), at most what the
 * device allows beside the variant's static bytes.  A launch that would
 * need more is infeasible for the tuning runtime, which runs another
 * candidate; the call must not fail for it. */
template <class F> inline int dyn_shared_clamp(F *kernel, size_t bytes) {
  int dev = 0, optin = 0;
  cudaGetDevice(&dev);
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || optin <= 0)
    return (int)bytes;
  cudaFuncAttributes fa;
  size_t fixed = kernel_attributes(kernel, fa) ? fa.sharedSizeBytes : 0;
  size_t most = (size_t)optin > fixed ? (size_t)optin - fixed : 0;
  return (int)(bytes < most ? bytes : most);
}

} // namespace tfuse_rt

/* The value of expression e if predicate p holds, else a zero of its type;
 * e is evaluated only when p holds. */
#define TFUSE_GUARD(p, e) ((p) ? (e) : ::tfuse_rt::__tf_zero<decltype(e)>())

#endif /* __CUDACC__ */
#endif /* TFUSE_PRELUDE_H */
