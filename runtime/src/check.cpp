/* tfuse check runtime: runs the original and the coarsened kernel of one
 * launch on the same inputs and compares what they wrote.  The library
 * behind <tfuse/check.h> (the header the output of `tfuse -check` contains);
 * host C++ on the CUDA runtime and driver APIs.  It uses the program's
 * CUDA runtime (nvcc links one into every program) and needs -lcuda.
 *
 * Contract, per checked launch (the emitted code calls, in this order):
 *
 *   tfuse_check_begin(kernel, site, stream)
 *       synchronises the stream; an earlier CUDA error nobody read is
 *       cleared with a warning, so that it is not taken for the original
 *       launch's.  The first call registers the summary printed at exit and
 *       reads TFUSE_CHECK_ULP and TFUSE_CHECK_FATAL.
 *       Checked launches are serialised: from begin to coarsened_done one
 *       host thread at a time.
 *   tfuse_check_track(c, p, kind, elem_size, arg)      for each writable
 *       pointer argument: finds the whole allocation containing p
 *       (cuMemGetAddressRange) and snapshots it into a new device buffer,
 *       once per allocation (two arguments in one allocation share it; the
 *       first one names it and gives its element kind).  A null p is
 *       skipped (nothing can be written through it).  A p the driver does
 *       not know as device memory (pageable host memory, say) cannot be
 *       snapshot: a warning, once per kernel, and the launch is counted as
 *       unchecked; with TFUSE_CHECK_FATAL it is an error instead.
 *   tfuse_check_track_table(c, p, elem_size, pointee_kind, pointee_size, arg)
 *       a pointer argument whose elements hold pointers (to elements of
 *       pointee_kind): its allocation as above, then each
 *       8-byte word of it (copied to the host) that lies in a device
 *       allocation not yet tracked has that allocation snapshot too, named
 *       "arg[i]" (one level: what those point to is not followed).
 *   tfuse_check_track_bytes(c, v, n, arg)               an argument of a
 *       class type (a struct by value): each 8-byte-aligned word of its n
 *       bytes that lies in a device allocation has it snapshot, named
 *       "arg@B" (B: the word's byte offset in the argument).
 *   tfuse_check_track_symbol(c, p, n, e, kind, elem_size, follow, pointee_kind, pointee_size, name)
 *       a __device__ variable the kernel writes: its n bytes at p (the
 *       runtime's cudaGetSymbolAddress; e its error, a blind spot
 *       "unnamed-variable"); with follow, its words are followed as a
 *       table's.
 *   tfuse_check_blind(c, category, detail)               what tfuse found
 *       the kernel may write and none of the above reaches.
 *   Followed pointers (tables, argument bytes) snapshot at most
 *   MAX_FOLLOWED allocations per launch and scan at most MAX_SCAN_BYTES of
 *   a table; past that the launch has the blind spot "too-many".
 *   the original kernel runs
 *   tfuse_check_original_done(c)
 *   [tfuse_check_again(c) true (TFUSE_CHECK_TWICE): the original runs again,
 *    then tfuse_check_again_done(c) compares it with its first run (a
 *    difference: the launch is "nondeterministic", not compared) and
 *    restores every region from its snapshot]
 *       reports a launch or execution error; copies each tracked
 *       allocation (what the original wrote: "expected") into a new device
 *       buffer, or, where that cannot be (no device memory for it, the
 *       device comparison off: below), to host memory; restores the
 *       allocation from its snapshot and frees the snapshot.
 *   the coarsened kernel runs
 *   tfuse_check_coarsened_done(c)
 *       reports a launch or execution error; compares each allocation
 *       with its expected copy (below), prints the mismatches, frees
 *       everything.  The coarsened kernel's results stay in memory.
 *
 * An unchecked launch (an argument not in device memory) runs both kernels
 * without snapshots: the coarsened kernel then writes over the original's
 * results.  A launch with a blind spot is compared where it was snapshot:
 * a difference is reported as such, else the launch is "not checked" with
 * the blind spot's category.  Categories (slug in the log, words on
 * stderr): host-memory "argument not in device memory", untraced
 * "write through an untraced pointer", unnamed-variable "unnamed
 * __device__ variable", too-many "too much memory behind pointers".
 *
 * Comparison: first on the device, where the expected copy is in device
 * memory: a kernel (compare.cu, loaded from the PTX in compare_ptx.h with
 * the driver API, once per CUDA context) tells whether the allocation and
 * its copy are bitwise equal, reading 8-byte words where both are
 * 8-aligned and bytes elsewhere; one small read answers for all the
 * launch's allocations.  An equal allocation is done: nothing is copied
 * to the host.  One that differs, or whose expected copy is in host
 * memory, is copied to the host and compared there, bitwise, element by
 * element, where the elements of an allocation are laid out from the
 * naming argument's pointer (element i is arg[i]; bytes before the first
 * or after the last whole element compare bytewise).  With
 * TFUSE_CHECK_ULP=N, float and double elements are equal when at most N
 * units in the last place apart (bit patterns mapped to a monotonic
 * integer order, so +0 == -0), and any two NaNs are equal; other kinds
 * stay bitwise (an allocation the device finds bitwise equal is equal
 * under any N; one it finds different is judged on the host, with N).
 * The reports are the same whichever way a launch was compared.  If the
 * kernel cannot be loaded or launched: one warning, and every allocation
 * is compared on the host from then on; where the driver's functions for
 * it are not found (a stand-in for CUDA), silently so.  Host copies go to
 * pinned memory (malloc where pinning fails), up to 1 GiB of which is kept
 * for later launches.
 *
 * Output, on stderr, every line starting with "tfuse-check: ":
 *   mismatch: kernel 'K' launched at SITE: argument 'A' (allocation P, N
 *       bytes), element I (byte offset B): original V (0xBITS), coarsened
 *       V (0xBITS)                      -- at most 10 per launch, then
 *     ... and N more mismatches in this launch
 *   kernel 'K': N launches checked, N mismatches[, N unchecked (WHY: N[, WHY: N]...)]
 *                                       -- at exit, per kernel, first-seen
 *                                          order; mismatches count elements;
 *                                          "1 launch", "1 mismatch" 
 *   warning: ... / error: K at SITE: WHAT: CUDA ERROR STRING
 *       a CUDA error (a failed launch, an allocation that fails) is fatal:
 *       exit status 1.  TFUSE_CHECK_FATAL=1 (set, not empty, not "0") also
 *       ends the program with status 1 after the first launch with a
 *       mismatch, and at the first argument that cannot be snapshot.
 *   warning: kernel 'K' launched at SITE: WHAT (CUDA_ERROR_NAME: WORDS);
 *       what the kernels write is compared on the host from now on, which
 *       is slower                       -- at most once: the device
 *                                          comparison failed (WHAT: "the
 *                                          comparison kernel cannot be
 *                                          loaded", "... launched")
 *
 * With TFUSE_CHECK_LOG=PATH, each launch also appends one JSON object, on
 * a line of its own, to the file PATH (opened for appending at the first
 * checked launch; several processes may share it):
 *   {"kernel":"K","site":"SITE","verdict":"identical"}
 *   {"kernel":"K","site":"SITE","verdict":"rounding","elements":N,"max_ulp":U}
 *                                       -- with TFUSE_CHECK_ULP: the same within
 *                                          the tolerance, N float elements not
 *                                          bit for bit, at most U ULP apart
 *   {"kernel":"K","site":"SITE","verdict":"differs","mismatches":N,
 *    "argument":"A","element":I,"byte_offset":B,"original":"V (0xBITS)",
 *    "coarsened":"V (0xBITS)"}          -- the first differing element of
 *                                          the first argument that differs
 *                                          ("element" is null for a byte
 *                                          outside the whole elements)
 *   {"kernel":"K","site":"SITE","verdict":"not-checked","category":"SLUG","reason":"..."}
 *   {"kernel":"K","site":"SITE","verdict":"fault","reason":"..."}
 *                                       -- a CUDA error ended the program
 * and at exit one line per kernel:
 *   {"kernel":"K","summary":true,"checked":N,"mismatches":N,"unchecked":N,
 *    "differing_launches":N[,"unchecked_by":{"SLUG":N,...}]}
 * A file that cannot be opened is a warning; the check goes on without it.
 *
 * Values print as: float %.9g, double %.17g, other elements of 1, 2, 4 or
 * 8 bytes as a signed little-endian integer and its hex, larger ones as 8
 * of their bytes in hex, from the first that differs (the line says which);
 * bytes outside whole elements as one hex byte each. */
#include "../include/tfuse/check.h" /* no include path needed */
#include "snapshot.h"                 /* shared with the tuning runtime (tune.cpp) */
#include "compare_ptx.h"              /* the device comparison (compare.cu), as PTX */

#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#define MAX_MISMATCH_LINES 10
#define MAX_FOLLOWED 64                        /* allocations found through pointers in memory, per launch */
#define MAX_SCAN_BYTES ((size_t)64 << 20)      /* of one table */

#include <string>

/* ---- the TFUSE_CHECK flag ------------------------------------------------ */

using tfuse_snap::env_flag;
using tfuse_snap::load_le;

int tfuse_check_enabled = -1; /* C linkage, from the header */

extern "C" int tfuse_check_enabled_slow(void) {
  if (tfuse_check_enabled < 0)
    tfuse_check_enabled = env_flag("TFUSE_CHECK");
  return tfuse_check_enabled;
}

/* Reads TFUSE_CHECK once, at program start, so that check_on() is one test. */
namespace {
struct ReadFlagAtStart {
  ReadFlagAtStart() { tfuse_check_enabled_slow(); }
} read_flag_at_start;
} // namespace

/* ---- per-kernel counts, the exit summary, settings ------------------------ */

struct KernelStats {
  const char *kernel;
  unsigned long long checked, unchecked, mismatches, differing;
  unsigned long long rounding; /* launches the same within TFUSE_CHECK_ULP but not bit for bit */
  unsigned long long nondet;   /* TFUSE_CHECK_TWICE: launches whose original differs from itself (unchecked) */
  bool warned_nondet;
  unsigned long long unchecked_by[TFUSE_CHECK_CATEGORIES];
  bool warned_unchecked;
  bool warned_blind[TFUSE_CHECK_CATEGORIES];
};

/* The blind-spot categories: a slug for the log, words for stderr. */
static const char *const category_slug[TFUSE_CHECK_CATEGORIES] = {"host-memory", "untraced",
                                                                  "unnamed-variable", "too-many", "original",
                                                                  "heap"};
static const char *const category_words[TFUSE_CHECK_CATEGORIES] = {
    "argument not in device memory", "write through an untraced pointer", "unnamed __device__ variable",
    "too much memory behind pointers", "shape the coarsened kernel cannot serve: the original ran",
    "allocates or frees device-heap memory: the coarsened kernel ran alone"};

static int category_ok(int cat) { return cat >= 0 && cat < TFUSE_CHECK_CATEGORIES ? cat : TFUSE_CHECK_UNTRACED; }

/* Plain arrays and flags, constant-initialised: usable from static
 * initialisers and from the atexit handler. */
static KernelStats *g_stats;
static size_t g_nstats, g_capstats;
static bool g_started;
static bool g_fatal;
static bool g_twice; /* TFUSE_CHECK_TWICE: run the original twice, to tell its own nondeterminism */
static bool g_ulp_on;
static FILE *g_log; /* TFUSE_CHECK_LOG, or null */
static unsigned long long g_ulp;
static std::mutex g_lock;

static const char *plural(unsigned long long n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* ---- the machine-readable log (TFUSE_CHECK_LOG) ------------------------- */

/* Writes KEY (raw text, e.g. `,"site":`) then s as a JSON string. */
static void log_string(const char *key, const char *s) {
  std::fputs(key, g_log);
  std::fputc('"', g_log);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\')
      std::fprintf(g_log, "\\%c", *p);
    else if (*p < 0x20)
      std::fprintf(g_log, "\\u%04x", *p);
    else
      std::fputc(*p, g_log);
  }
  std::fputc('"', g_log);
}

/* Starts a launch's record: {"kernel":K,"site":S,"verdict":V (no closing brace). */
static void log_begin(const char *kernel, const char *site, const char *verdict) {
  log_string("{\"kernel\":", kernel);
  log_string(",\"site\":", site);
  log_string(",\"verdict\":", verdict);
}

/* Ends a record and flushes it, so that a program that dies keeps its lines. */
static void log_end(void) {
  std::fputs("}\n", g_log);
  std::fflush(g_log);
}

/* A whole record with a reason: not-checked (with its category, >= 0) and fault. */
static void log_reason(const char *kernel, const char *site, const char *verdict, int category,
                       const char *reason) {
  if (!g_log)
    return;
  log_begin(kernel, site, verdict);
  if (category >= 0)
    log_string(",\"category\":", category_slug[category]);
  log_string(",\"reason\":", reason);
  log_end();
}

static void print_summary(void) {
  for (size_t i = 0; i < g_nstats; i++) {
    const KernelStats *s = &g_stats[i];
    std::fprintf(stderr, "tfuse-check: kernel '%s': %llu %s checked, %llu %s", s->kernel,
                 s->checked, plural(s->checked, "launch", "launches"), s->mismatches,
                 plural(s->mismatches, "mismatch", "mismatches"));
    if (s->rounding)
      std::fprintf(stderr, ", %llu within the ULP tolerance but not bit for bit", s->rounding);
    if (s->nondet)
      std::fprintf(stderr, ", %llu whose original is nondeterministic", s->nondet);
    if (s->unchecked) {
      std::fprintf(stderr, ", %llu unchecked (", s->unchecked);
      const char *sep = "";
      for (int k = 0; k < TFUSE_CHECK_CATEGORIES; k++)
        if (s->unchecked_by[k]) {
          std::fprintf(stderr, "%s%s: %llu", sep, category_words[k], s->unchecked_by[k]);
          sep = ", ";
        }
      std::fputc(')', stderr);
    }
    std::fputc('\n', stderr);
  }
  std::fflush(stderr);
  if (g_log) {
    for (size_t i = 0; i < g_nstats; i++) {
      const KernelStats *s = &g_stats[i];
      log_string("{\"kernel\":", s->kernel);
      std::fprintf(g_log,
                   ",\"summary\":true,\"checked\":%llu,\"mismatches\":%llu,\"unchecked\":%llu,"
                   "\"differing_launches\":%llu",
                   s->checked, s->mismatches, s->unchecked, s->differing);
      if (s->rounding)
        std::fprintf(g_log, ",\"rounding_launches\":%llu", s->rounding);
      if (s->nondet)
        std::fprintf(g_log, ",\"nondeterministic_launches\":%llu", s->nondet);
      if (s->unchecked) {
        std::fputs(",\"unchecked_by\":{", g_log);
        const char *sep = "";
        for (int k = 0; k < TFUSE_CHECK_CATEGORIES; k++)
          if (s->unchecked_by[k]) {
            std::fprintf(g_log, "%s\"%s\":%llu", sep, category_slug[k], s->unchecked_by[k]);
            sep = ",";
          }
        std::fputc('}', g_log);
      }
      std::fputs("}\n", g_log);
    }
    std::fflush(g_log);
  }
}

static KernelStats *stats_for(const char *kernel) {
  for (size_t i = 0; i < g_nstats; i++)
    if (std::strcmp(g_stats[i].kernel, kernel) == 0)
      return &g_stats[i];
  if (g_nstats == g_capstats) {
    size_t cap = g_capstats ? 2 * g_capstats : 16;
    KernelStats *p = (KernelStats *)std::realloc(g_stats, cap * sizeof *p);
    if (!p) {
      std::fprintf(stderr, "tfuse-check: error: out of host memory\n");
      std::exit(1);
    }
    g_stats = p;
    g_capstats = cap;
  }
  KernelStats *s = &g_stats[g_nstats++];
  std::memset(s, 0, sizeof *s);
  s->kernel = kernel;
  return s;
}

/* The first checked launch: settings from the environment, the summary. */
static void start_once(void) {
  if (g_started)
    return;
  g_started = true;
  g_fatal = env_flag("TFUSE_CHECK_FATAL");
  g_twice = env_flag("TFUSE_CHECK_TWICE");
  const char *log = std::getenv("TFUSE_CHECK_LOG");
  if (log && *log) {
    g_log = std::fopen(log, "a");
    if (!g_log)
      std::fprintf(stderr, "tfuse-check: warning: cannot open TFUSE_CHECK_LOG file '%s'; no log\n",
                   log);
  }
  tfuse_snap::read_ulp("tfuse-check", &g_ulp_on, &g_ulp);
  std::atexit(print_summary);
}

/* ---- one checked launch --------------------------------------------------- */

/* Host memory for a copy of what a kernel wrote (pinned where possible). */
struct HostBuf {
  unsigned char *p; /* null: none */
  size_t cap;
  bool pinned;            /* cuMemHostAlloc's, else malloc's */
  unsigned long long id;  /* pinned: the allocation's unique id, or 0 */
};

struct DeviceCompare;

struct Region {
  unsigned char *base; /* the allocation (or a __device__ variable's bytes) */
  size_t size;
  std::string arg; /* the first argument in it (or "t[i]", "p@B", a variable's name) */
  int kind;
  size_t elem_size;
  size_t arg_offset;           /* (argument pointer) - base */
  void *snapshot;              /* device: the allocation before the launch */
  bool snapshot_host;          /* ... in host memory: the device had no room for it */
  unsigned char *expected_dev; /* device: what the original wrote, or null, then: */
  HostBuf expected;            /* host: what the original wrote */
};

struct tfuse_check_launch {
  const char *kernel;
  const char *site;
  cudaStream_t stream;
  KernelStats *stats;
  bool unchecked;
  char unchecked_reason[256]; /* why, for the log */
  int blind;                  /* the first blind spot's category, or -1 */
  char blind_reason[256];
  int followed;               /* allocations found through pointers in memory */
  DeviceCompare *dc;          /* the comparison on the device, or null: all on the host */
  std::vector<Region> regions;
  bool again;                 /* TFUSE_CHECK_TWICE: the original runs a second time (snapshots kept) */
  bool nondet;                /* ... and wrote something else than its first run */
};

static void host_give(HostBuf *b);

static void free_snapshot(Region *g) {
  if (g->snapshot_host)
    std::free(g->snapshot);
  else
    cudaFree(g->snapshot);
  g->snapshot = 0;
}

static void free_launch(tfuse_check_launch *c) {
  for (size_t i = 0; i < c->regions.size(); i++) {
    if (c->regions[i].snapshot)
      free_snapshot(&c->regions[i]);
    if (c->regions[i].expected_dev)
      cudaFree(c->regions[i].expected_dev);
    host_give(&c->regions[i].expected);
  }
  delete c;
}

/* A CUDA error inside a check: report it and end the program. */
static void fail(const tfuse_check_launch *c, const char *what, cudaError_t e) {
  std::fprintf(stderr, "tfuse-check: error: %s at %s: %s: %s\n", c->kernel, c->site, what,
               cudaGetErrorString(e));
  char reason[512];
  std::snprintf(reason, sizeof reason, "%s: %s", what, cudaGetErrorString(e));
  log_reason(c->kernel, c->site, "fault", -1, reason);
  std::exit(1);
}

static void check_cuda(const tfuse_check_launch *c, cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    fail(c, what, e);
}

static void *host_alloc(const tfuse_check_launch *c, size_t n) {
  void *p = std::malloc(n ? n : 1);
  if (!p) {
    std::fprintf(stderr, "tfuse-check: error: %s at %s: out of host memory (%zu bytes)\n",
                 c->kernel, c->site, n);
    std::exit(1);
  }
  return p;
}

/* ---- CUDA driver functions found at run time -------------------------------- */

/* The driver functions that only the device comparison and pinned host
 * memory need are looked up in the program's libcuda (dlsym) at the first
 * checked launch, not linked: a program that provides only the CUDA
 * functions the rest of this file links (a stand-in for CUDA on the host,
 * in tests) still links and runs, and compares everything on the host as
 * before.  A null entry: not found. */
struct DriverFns {
  CUresult (*ctx_get_current)(CUcontext *);
  CUresult (*ctx_get_id)(CUcontext, unsigned long long *); /* CUDA 12.0 and newer */
  CUresult (*module_load_data)(CUmodule *, const void *);
  CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
  CUresult (*module_unload)(CUmodule);
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            CUstream, void **, void **);
  CUresult (*pointer_get_attribute)(void *, CUpointer_attribute, CUdeviceptr);
  CUresult (*mem_host_alloc)(void **, size_t, unsigned);
  CUresult (*mem_free_host)(void *);
  CUresult (*get_error_string)(CUresult, const char **);
};

static DriverFns g_drv;
static bool g_drv_found;

/* Sets *fn to the driver's function `name`, or null: from the program's
 * global symbols (it links -lcuda), else from libcuda.so.1 if loaded. */
template <class F> static void find_driver_fn(F *fn, const char *name) {
  static_assert(sizeof(F) == sizeof(void *), "a function pointer is an address");
  void *sym = dlsym(RTLD_DEFAULT, name);
  if (!sym) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (lib)
      sym = dlsym(lib, name);
  }
  std::memcpy(fn, &sym, sizeof *fn);
}

static const DriverFns *driver(void) {
  if (!g_drv_found) {
    g_drv_found = true;
    find_driver_fn(&g_drv.ctx_get_current, "cuCtxGetCurrent");
    find_driver_fn(&g_drv.ctx_get_id, "cuCtxGetId");
    find_driver_fn(&g_drv.module_load_data, "cuModuleLoadData");
    find_driver_fn(&g_drv.module_get_function, "cuModuleGetFunction");
    find_driver_fn(&g_drv.module_unload, "cuModuleUnload");
    /* stream 0 means what it means to this file's runtime calls (cuda.h
     * names the function the same way) */
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
    find_driver_fn(&g_drv.launch_kernel, "cuLaunchKernel_ptsz");
#else
    find_driver_fn(&g_drv.launch_kernel, "cuLaunchKernel");
#endif
    find_driver_fn(&g_drv.pointer_get_attribute, "cuPointerGetAttribute");
    find_driver_fn(&g_drv.mem_host_alloc, "cuMemHostAlloc");
    find_driver_fn(&g_drv.mem_free_host, "cuMemFreeHost");
    find_driver_fn(&g_drv.get_error_string, "cuGetErrorString");
  }
  return &g_drv;
}

/* ---- host memory for copies ------------------------------------------------ */

/* Copies of what the kernels wrote go to host memory only where the device
 * comparison is not used or found a difference.  Buffers of PIN_MIN bytes
 * or more are pinned (cuMemHostAlloc, portable: copies into them run at
 * the link's speed; malloc when pinning fails) and kept for later
 * launches, up to HOST_KEEP bytes in all: fresh pageable memory costs a
 * page fault per page at every copy, more than the copy itself.  Smaller
 * ones are malloc's and freed at once.  A plain array, like g_stats. */
#define PIN_MIN ((size_t)1 << 20)
#define HOST_KEEP ((size_t)1 << 30)

static HostBuf *g_spare;
static size_t g_nspare, g_capspare, g_spare_bytes;

/* Whether a kept buffer is still there: pinned memory goes with the
 * context that allocated it (cudaDeviceReset frees it), and then its
 * address no longer has the allocation's process-wide unique id. */
static bool host_alive(const HostBuf *b) {
  if (!b->pinned)
    return true;
  unsigned long long id = 0;
  return driver()->pointer_get_attribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, (CUdeviceptr)(uintptr_t)b->p) ==
             CUDA_SUCCESS &&
         id == b->id;
}

/* Frees a buffer, or only forgets it when its memory is gone already. */
static void host_free(HostBuf *b) {
  if (!b->pinned)
    std::free(b->p);
  else if (host_alive(b))
    driver()->mem_free_host(b->p);
  b->p = 0;
}

/* Takes kept buffer i out of the array. */
static HostBuf spare_remove(size_t i) {
  HostBuf b = g_spare[i];
  g_spare[i] = g_spare[--g_nspare];
  g_spare_bytes -= b.cap;
  return b;
}

/* A pinned buffer of n bytes, with its id, or false. */
static bool host_pin(size_t n, HostBuf *b) {
  const DriverFns *d = driver();
  void *p = 0;
  if (!d->mem_host_alloc || !d->mem_free_host || !d->pointer_get_attribute ||
      d->mem_host_alloc(&p, n, CU_MEMHOSTALLOC_PORTABLE) != CUDA_SUCCESS)
    return false;
  unsigned long long id = 0;
  if (d->pointer_get_attribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, (CUdeviceptr)(uintptr_t)p) != CUDA_SUCCESS) {
    d->mem_free_host(p);
    return false;
  }
  b->p = (unsigned char *)p;
  b->cap = n;
  b->pinned = true;
  b->id = id;
  return true;
}

/* A buffer of at least n bytes: the smallest kept one that fits, or a new
 * one.  Ends the program when there is no host memory. */
static HostBuf host_take(const tfuse_check_launch *c, size_t n) {
  for (;;) {
    size_t best = g_nspare;
    for (size_t i = 0; i < g_nspare; i++)
      if (g_spare[i].cap >= n && (best == g_nspare || g_spare[i].cap < g_spare[best].cap))
        best = i;
    if (best == g_nspare)
      break;
    HostBuf b = spare_remove(best);
    if (host_alive(&b))
      return b;
    /* gone with its context: forgotten, and the next one tried */
  }
  HostBuf b;
  if (n >= PIN_MIN && host_pin(n, &b))
    return b;
  b.cap = n ? n : 1;
  b.pinned = false;
  b.id = 0;
  b.p = (unsigned char *)host_alloc(c, b.cap);
  return b;
}

/* Gives a buffer back: kept for later launches if large and there is room
 * (made by freeing smaller kept ones), else freed. */
static void host_give(HostBuf *b) {
  if (!b->p)
    return;
  if (b->cap >= PIN_MIN && b->cap <= HOST_KEEP) {
    while (g_nspare && g_spare_bytes + b->cap > HOST_KEEP) {
      size_t small = 0;
      for (size_t i = 1; i < g_nspare; i++)
        if (g_spare[i].cap < g_spare[small].cap)
          small = i;
      if (g_spare[small].cap >= b->cap)
        break; /* keep the larger ones */
      HostBuf k = spare_remove(small);
      host_free(&k);
    }
    if (g_spare_bytes + b->cap <= HOST_KEEP) {
      if (g_nspare == g_capspare) {
        size_t cap = g_capspare ? 2 * g_capspare : 8;
        HostBuf *p = (HostBuf *)std::realloc(g_spare, cap * sizeof *p);
        if (p) {
          g_spare = p;
          g_capspare = cap;
        }
      }
      if (g_nspare < g_capspare) {
        g_spare[g_nspare++] = *b;
        g_spare_bytes += b->cap;
        b->p = 0;
        return;
      }
    }
  }
  host_free(b);
}

/* After a launch: its launch error, then its execution error. */
static void check_launch(const tfuse_check_launch *c, const char *which) {
  char what[128];
  std::snprintf(what, sizeof what, "launch of the %s kernel failed", which);
  check_cuda(c, cudaGetLastError(), what);
  std::snprintf(what, sizeof what, "the %s kernel failed", which);
  check_cuda(c, cudaStreamSynchronize(c->stream), what);
}

/* A launch that ran one kernel alone, unchecked, in category cat. */
static void ran_alone(const char *kernel, const char *site, int cat, const char *why) {
  std::lock_guard<std::mutex> hold(g_lock);
  start_once();
  KernelStats *s = stats_for(kernel);
  s->unchecked++;
  s->unchecked_by[cat]++;
  log_reason(kernel, site, "not-checked", cat, why);
}

extern "C" void tfuse_check_ran_original(const char *kernel, const char *site) {
  ran_alone(kernel, site, TFUSE_CHECK_ORIGINAL,
            "the coarsened kernel cannot serve this launch's shape; the original ran alone");
}

extern "C" void tfuse_check_ran_once(const char *kernel, const char *site) {
  ran_alone(kernel, site, TFUSE_CHECK_HEAP,
            "the kernel allocates or frees device-heap memory (new, delete, malloc, free): run twice from one "
            "state it would free twice; the coarsened kernel ran alone");
}

extern "C" tfuse_check_launch *tfuse_check_begin(const char *kernel, const char *site,
                                                 cudaStream_t stream) {
  g_lock.lock();
  start_once();
  tfuse_check_launch *c = new tfuse_check_launch;
  c->kernel = kernel;
  c->site = site;
  c->stream = stream;
  c->stats = stats_for(kernel);
  c->unchecked = false;
  c->unchecked_reason[0] = 0;
  c->blind = -1;
  c->blind_reason[0] = 0;
  c->followed = 0;
  c->dc = 0;
  c->again = c->nondet = false;

  /* The primary context is current after this (the driver queries need one). */
  check_cuda(c, cudaFree(0), "initialising CUDA");
  /* An error left by earlier code would be taken for the original's. */
  cudaError_t pending = cudaGetLastError();
  if (pending != cudaSuccess)
    std::fprintf(stderr,
                 "tfuse-check: warning: kernel '%s' launched at %s: clearing an earlier CUDA "
                 "error that nobody read: %s\n",
                 kernel, site, cudaGetErrorString(pending));
  check_cuda(c, cudaStreamSynchronize(stream), "synchronising the stream before the launch");
  return c;
}

/* The region whose bytes hold p, or null. */
static Region *region_holding(tfuse_check_launch *c, const void *p) {
  const unsigned char *q = (const unsigned char *)p;
  for (size_t i = 0; i < c->regions.size(); i++)
    if (q >= c->regions[i].base && q < c->regions[i].base + c->regions[i].size)
      return &c->regions[i];
  return 0;
}

/* Snapshots [base, base + size) as a new region named arg, whose elements
 * of `kind` start at `at`; nothing if a region has that base already.
 * Returns the region, new or old. */
static Region *add_region(tfuse_check_launch *c, unsigned char *base, size_t size, const unsigned char *at,
                          int kind, size_t elem_size, const char *arg) {
  for (size_t i = 0; i < c->regions.size(); i++)
    if (c->regions[i].base == base)
      return &c->regions[i];
  Region g;
  g.base = base;
  g.size = size;
  g.arg = arg;
  g.kind = kind;
  g.elem_size = elem_size ? elem_size : 1;
  g.arg_offset = (size_t)(at - base);
  g.snapshot = 0;
  g.snapshot_host = false;
  g.expected_dev = 0;
  g.expected.p = 0;
  g.expected.cap = 0;
  g.expected.pinned = false;
  g.expected.id = 0;
  c->regions.push_back(g);
  Region *s = &c->regions.back();
  char what[160];
  if (cudaMalloc(&s->snapshot, size) != cudaSuccess) {
    /* No room on the device (the program's own allocations, other
     * processes): the snapshot goes to host memory, slower but the same. */
    cudaGetLastError();
    s->snapshot = host_alloc(c, size);
    s->snapshot_host = true;
  }
  std::snprintf(what, sizeof what, "snapshotting argument '%s'", arg);
  check_cuda(c, cudaMemcpyAsync(s->snapshot, s->base, size, cudaMemcpyDefault, c->stream), what);
  return s;
}

/* Records the launch's first blind spot (later ones are only counted as
 * the first's launch). */
static void set_blind(tfuse_check_launch *c, int category, const char *fmt, const char *a, const char *b) {
  if (c->blind >= 0)
    return;
  c->blind = category_ok(category);
  std::snprintf(c->blind_reason, sizeof c->blind_reason, fmt, a, b);
}

/* A word that may be a device address: not small, not past the user
 * address space.  The driver decides the rest. */
static bool may_be_address(unsigned long long w) { return w >= 4096 && w < (1ull << 57); }

/* A pointer found in memory (a table's entry, an argument's bytes): the
 * allocation it points into is snapshot unless tracked already. */
static void follow_word(tfuse_check_launch *c, unsigned long long w, int kind, size_t elem_size,
                        const char *name) {
  if (!may_be_address(w) || region_holding(c, (const void *)(uintptr_t)w))
    return;
  unsigned char *base = 0;
  size_t size = 0;
  const char *err = 0;
  if (!tfuse_snap::allocation_of((const void *)(uintptr_t)w, &base, &size, &err))
    return; /* not a device address: a number, or host memory */
  if (c->followed >= MAX_FOLLOWED) {
    char n[32];
    std::snprintf(n, sizeof n, "%d", MAX_FOLLOWED);
    set_blind(c, TFUSE_CHECK_TOO_MANY, "pointers in '%s' lead to more than %s allocations", name, n);
    return;
  }
  c->followed++;
  add_region(c, base, size, (const unsigned char *)(uintptr_t)w, kind, elem_size, name);
}

/* Follows the 8-byte words of region g (one level), naming what each
 * leads to "arg[i]" (8-byte elements) or "arg@B". */
static void follow_region(tfuse_check_launch *c, size_t gi, int kind, size_t elem_size) {
  size_t size = c->regions[gi].size;
  std::string arg = c->regions[gi].arg;
  size_t es = c->regions[gi].elem_size, at = c->regions[gi].arg_offset;
  if (size > MAX_SCAN_BYTES) {
    set_blind(c, TFUSE_CHECK_TOO_MANY, "the pointers in '%s' are not followed: %s bytes, more than the check scans",
              arg.c_str(), std::to_string(size).c_str());
    return;
  }
  unsigned char *host = (unsigned char *)host_alloc(c, size);
  char what[160];
  std::snprintf(what, sizeof what, "reading the pointers in '%s'", arg.c_str());
  check_cuda(c, cudaMemcpyAsync(host, c->regions[gi].base, size, cudaMemcpyDefault, c->stream), what);
  check_cuda(c, cudaStreamSynchronize(c->stream), what);
  for (size_t off = 0; off + 8 <= size; off += 8) {
    char name[160];
    if (es == 8 && off >= at && (off - at) % 8 == 0)
      std::snprintf(name, sizeof name, "%s[%zu]", arg.c_str(), (off - at) / 8);
    else
      std::snprintf(name, sizeof name, "%s@%zu", arg.c_str(), off);
    follow_word(c, load_le(host + off, 8), kind, elem_size, name);
  }
  std::free(host);
}

extern "C" void tfuse_check_track_table(tfuse_check_launch *c, const void *p, size_t elem_size, int pointee_kind,
                                        size_t pointee_size, const char *arg) {
  if (!p || c->unchecked)
    return;
  tfuse_check_track(c, p, TFUSE_CHECK_BYTES, elem_size, arg);
  Region *g = c->unchecked ? 0 : region_holding(c, p);
  if (g)
    follow_region(c, (size_t)(g - &c->regions[0]), pointee_kind, pointee_size);
}

extern "C" void tfuse_check_track_bytes(tfuse_check_launch *c, const void *v, size_t n, const char *arg) {
  if (!v || c->unchecked)
    return;
  const unsigned char *b = (const unsigned char *)v;
  for (size_t off = 0; off + 8 <= n; off += 8) {
    char name[160];
    std::snprintf(name, sizeof name, "%s@%zu", arg, off);
    unsigned long long w;
    std::memcpy(&w, b + off, 8);
    follow_word(c, w, TFUSE_CHECK_BYTES, 1, name);
  }
}

extern "C" void tfuse_check_track_symbol(tfuse_check_launch *c, const void *p, size_t n, cudaError_t e, int kind,
                                         size_t elem_size, int follow, int pointee_kind, size_t pointee_size,
                                         const char *name) {
  if (c->unchecked)
    return;
  if (e != cudaSuccess || !p) {
    set_blind(c, TFUSE_CHECK_UNNAMED, "the __device__ variable '%s' has no address: %s", name,
              cudaGetErrorString(e));
    cudaGetLastError(); /* not the original launch's error */
    return;
  }
  Region *g = add_region(c, (unsigned char *)p, n, (const unsigned char *)p, kind, elem_size, name);
  if (follow)
    follow_region(c, (size_t)(g - &c->regions[0]), pointee_kind, pointee_size);
}

extern "C" void tfuse_check_blind(tfuse_check_launch *c, int category, const char *detail) {
  set_blind(c, category, "%s%s", detail ? detail : "", "");
}

extern "C" void tfuse_check_track(tfuse_check_launch *c, const void *p, int kind,
                                  size_t elem_size, const char *arg) {
  if (!p || c->unchecked)
    return;
  unsigned char *base = 0;
  size_t size = 0;
  const char *name = 0;
  if (!tfuse_snap::allocation_of(p, &base, &size, &name)) {
    if (g_fatal) {
      std::fprintf(stderr,
                   "tfuse-check: error: %s at %s: argument '%s' (%p) is not in a CUDA device "
                   "allocation (%s), so it cannot be snapshot (TFUSE_CHECK_FATAL is set)\n",
                   c->kernel, c->site, arg, p, name);
      std::exit(1);
    }
    if (!c->stats->warned_unchecked) {
      c->stats->warned_unchecked = true;
      std::fprintf(stderr,
                   "tfuse-check: warning: kernel '%s' launched at %s: argument '%s' (%p) is not "
                   "in a CUDA device allocation (%s), so it cannot be snapshot; launches like "
                   "this one are not checked\n",
                   c->kernel, c->site, arg, p, name);
    }
    c->unchecked = true;
    std::snprintf(c->unchecked_reason, sizeof c->unchecked_reason,
                  "argument '%s' is not in a CUDA device allocation (%s)", arg, name);
    return;
  }
  add_region(c, base, size, (const unsigned char *)p, kind, elem_size, arg);
}

/* ---- the comparison on the device (compare.cu) ---------------------------- */

/* The kernel tfuse_check_compare (compare.cu, as PTX in compare_ptx.h)
 * loaded into one CUDA context with the driver API, at the first checked
 * launch there, and a device word per region of a launch for its answers.
 * When it cannot be loaded or launched: a warning, and every region is
 * compared on the host from then on. */
struct DeviceCompare {
  unsigned long long ctx; /* the context: its id (cuCtxGetId), else its handle */
  CUmodule module;
  CUfunction fn;
  unsigned long long *first; /* device: one answer per region */
  size_t cap;                /* answers room at first */
};

/* A plain array, like g_stats; g_dc_off: the host compares from now on. */
static DeviceCompare *g_dc;
static size_t g_ndc, g_capdc;
static bool g_dc_off;

#define COMPARE_BLOCK 256
#define COMPARE_MAX_BLOCKS 4096
#define NO_DIFFERENCE (~0ull) /* the kernel's answer for two equal copies */

/* The first failure of the device comparison: one warning, then the host. */
static void device_compare_off(const tfuse_check_launch *c, const char *what, CUresult r) {
  const char *name = "unknown", *words = "unknown error";
  cuGetErrorName(r, &name);
  if (driver()->get_error_string)
    driver()->get_error_string(r, &words);
  std::fprintf(stderr,
               "tfuse-check: warning: kernel '%s' launched at %s: %s (%s: %s); what the kernels write "
               "is compared on the host from now on, which is slower\n",
               c->kernel, c->site, what, name, words);
  g_dc_off = true;
}

/* The current context's identity: its id, unique for the run (a primary
 * context re-created after cudaDeviceReset is a new one), else its handle. */
static bool current_context(unsigned long long *id) {
  const DriverFns *d = driver();
  CUcontext ctx = 0;
  if (d->ctx_get_current(&ctx) != CUDA_SUCCESS || !ctx)
    return false;
  unsigned long long v = 0;
  if (d->ctx_get_id && d->ctx_get_id(ctx, &v) == CUDA_SUCCESS) {
    *id = v;
    return true;
  }
  *id = (unsigned long long)(uintptr_t)ctx;
  return true;
}

/* The device comparison in the current context (the runtime's primary
 * context: tfuse_check_begin made it current), with room for nregions
 * answers; loads the kernel there first if needed.  Null: the host
 * compares this launch (the comparison is off; the driver's functions are
 * not found, or there is no current context: a stand-in for CUDA; no
 * device memory for the answers). */
static DeviceCompare *device_compare(const tfuse_check_launch *c, size_t nregions) {
  const DriverFns *drv = driver();
  if (g_dc_off || !nregions || !drv->ctx_get_current || !drv->module_load_data || !drv->module_get_function ||
      !drv->module_unload || !drv->launch_kernel || !drv->pointer_get_attribute)
    return 0;
  unsigned long long ctx = 0;
  if (!current_context(&ctx))
    return 0;
  DeviceCompare *d = 0;
  for (size_t i = 0; i < g_ndc && !d; i++)
    if (g_dc[i].ctx == ctx)
      d = &g_dc[i];
  if (!d) {
    CUmodule module = 0;
    CUfunction fn = 0;
    CUresult r = drv->module_load_data(&module, tfuse_compare_ptx);
    if (r != CUDA_SUCCESS) {
      device_compare_off(c, "the comparison kernel cannot be loaded", r);
      return 0;
    }
    r = drv->module_get_function(&fn, module, "tfuse_check_compare");
    if (r != CUDA_SUCCESS) {
      drv->module_unload(module);
      device_compare_off(c, "the comparison kernel is not in its module", r);
      return 0;
    }
    if (g_ndc == g_capdc) {
      size_t cap = g_capdc ? 2 * g_capdc : 4;
      DeviceCompare *p = (DeviceCompare *)std::realloc(g_dc, cap * sizeof *p);
      if (!p) {
        std::fprintf(stderr, "tfuse-check: error: out of host memory\n");
        std::exit(1);
      }
      g_dc = p;
      g_capdc = cap;
    }
    d = &g_dc[g_ndc++];
    d->ctx = ctx;
    d->module = module;
    d->fn = fn;
    d->first = 0;
    d->cap = 0;
  }
  if (d->cap < nregions) {
    size_t cap = nregions < 16 ? 16 : nregions;
    void *p = 0;
    if (cudaMalloc(&p, cap * sizeof *d->first) != cudaSuccess) {
      cudaGetLastError(); /* out of device memory: not the program's error */
      return 0;
    }
    if (d->first)
      cudaFree(d->first);
    d->first = (unsigned long long *)p;
    d->cap = cap;
  }
  return d;
}

/* Whether the kernel may read the region at its address: the driver's
 * device pointer for it is that address (device and managed memory, and
 * mapped host memory under unified addressing). */
static bool device_readable(const Region *g) {
  CUdeviceptr p = 0;
  CUresult r = driver()->pointer_get_attribute(&p, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                               (CUdeviceptr)(uintptr_t)g->base);
  return r == CUDA_SUCCESS && p == (CUdeviceptr)(uintptr_t)g->base;
}

/* For each region with a device copy of what the original wrote, runs the
 * comparison kernel on it and the region (what the coarsened kernel
 * wrote), then reads the answers back at once: same[i] is true when the
 * two are bitwise equal.  Regions it did not compare (no device copy, or
 * the kernel could not be launched) get false, i.e. "compare on the
 * host". */
static void compare_on_device(tfuse_check_launch *c, std::vector<char> *same) {
  size_t n = c->regions.size();
  same->assign(n, 0);
  DeviceCompare *d = c->dc;
  bool any = false;
  for (size_t i = 0; i < n; i++)
    any = any || c->regions[i].expected_dev;
  if (!d || !any)
    return;
  std::vector<unsigned long long> first(n, NO_DIFFERENCE);
  check_cuda(c, cudaMemcpyAsync(d->first, first.data(), n * sizeof *d->first, cudaMemcpyHostToDevice, c->stream),
             "clearing the answers of the device comparison");
  std::vector<char> asked(n, 0);
  for (size_t i = 0; i < n && !g_dc_off; i++) {
    Region *g = &c->regions[i];
    if (!g->expected_dev)
      continue;
    const void *a = g->base, *b = g->expected_dev;
    unsigned long long size = g->size;
    unsigned long long *answer = d->first + i;
    void *params[] = {&a, &b, &size, &answer};
    unsigned long long blocks = (size / 8 + COMPARE_BLOCK - 1) / COMPARE_BLOCK;
    if (blocks < 1)
      blocks = 1;
    if (blocks > COMPARE_MAX_BLOCKS)
      blocks = COMPARE_MAX_BLOCKS;
    CUresult r = driver()->launch_kernel(d->fn, (unsigned)blocks, 1, 1, COMPARE_BLOCK, 1, 1, 0, (CUstream)c->stream,
                                         params, 0);
    if (r != CUDA_SUCCESS) {
      device_compare_off(c, "the comparison kernel cannot be launched", r);
      break;
    }
    asked[i] = 1;
  }
  check_cuda(c, cudaMemcpyAsync(first.data(), d->first, n * sizeof *d->first, cudaMemcpyDeviceToHost, c->stream),
             "reading the answers of the device comparison");
  check_cuda(c, cudaStreamSynchronize(c->stream), "comparing on the device");
  for (size_t i = 0; i < n; i++)
    (*same)[i] = asked[i] && first[i] == NO_DIFFERENCE;
}

/* Keeps what the original wrote to region g: in a new device buffer when
 * the launch compares on the device, the region may be read there and
 * there is device memory for it, else in host memory.  Asynchronous, on
 * the launch's stream. */
static void keep_expected(tfuse_check_launch *c, Region *g) {
  char what[160];
  if (c->dc && device_readable(g)) {
    void *p = 0;
    if (cudaMalloc(&p, g->size) == cudaSuccess)
      g->expected_dev = (unsigned char *)p;
    else
      cudaGetLastError(); /* out of device memory: the host keeps it, as below */
  }
  std::snprintf(what, sizeof what, "copying what the original wrote to argument '%s'", g->arg.c_str());
  if (g->expected_dev) {
    check_cuda(c, cudaMemcpyAsync(g->expected_dev, g->base, g->size, cudaMemcpyDefault, c->stream), what);
    return;
  }
  g->expected = host_take(c, g->size);
  check_cuda(c, cudaMemcpyAsync(g->expected.p, g->base, g->size, cudaMemcpyDefault, c->stream), what);
}

extern "C" void tfuse_check_original_done(tfuse_check_launch *c) {
  check_launch(c, "original");
  if (c->unchecked)
    return;
  c->dc = device_compare(c, c->regions.size());
  for (size_t i = 0; i < c->regions.size(); i++) {
    Region *g = &c->regions[i];
    char what[160];
    keep_expected(c, g);
    std::snprintf(what, sizeof what, "restoring argument '%s' from its snapshot", g->arg.c_str());
    check_cuda(c, cudaMemcpyAsync(g->base, g->snapshot, g->size, cudaMemcpyDefault, c->stream),
               what);
    /* Each snapshot is freed before the next region's copy is allocated:
     * at most one region has both (TFUSE_CHECK_TWICE keeps them for the
     * second run). */
    check_cuda(c, cudaStreamSynchronize(c->stream), "synchronising after the restore");
    if (!g_twice)
      free_snapshot(g);
  }
  c->again = g_twice;
}

extern "C" int tfuse_check_again(tfuse_check_launch *c) { return c->again && !c->unchecked; }

/* After the original's second run: whether it wrote what its first run
 * did (on the device where the region's first result is there, else on
 * the host), then every region restored and its snapshot freed. */
extern "C" void tfuse_check_again_done(tfuse_check_launch *c) {
  check_launch(c, "original (run again)");
  std::vector<char> same;
  compare_on_device(c, &same);
  for (size_t i = 0; i < c->regions.size() && !c->nondet; i++) {
    Region *g = &c->regions[i];
    if (same[i])
      continue;
    HostBuf first = host_take(c, g->size), now = host_take(c, g->size);
    const unsigned char *exp = g->expected.p;
    if (g->expected_dev) {
      check_cuda(c, cudaMemcpyAsync(first.p, g->expected_dev, g->size, cudaMemcpyDefault, c->stream),
                 "copying the original's first result");
      exp = first.p;
    }
    check_cuda(c, cudaMemcpyAsync(now.p, g->base, g->size, cudaMemcpyDefault, c->stream),
               "copying the original's second result");
    check_cuda(c, cudaStreamSynchronize(c->stream), "copying the original's second result");
    c->nondet = std::memcmp(exp, now.p, g->size) != 0;
    host_give(&first);
    host_give(&now);
  }
  for (size_t i = 0; i < c->regions.size(); i++) {
    Region *g = &c->regions[i];
    check_cuda(c, cudaMemcpyAsync(g->base, g->snapshot, g->size, cudaMemcpyDefault, c->stream),
               "restoring an argument from its snapshot");
    check_cuda(c, cudaStreamSynchronize(c->stream), "synchronising after the restore");
    free_snapshot(g);
  }
  c->again = false;
}

/* ---- comparison ---------------------------------------------------------- */

static bool same_element(const Region *g, const unsigned char *x, const unsigned char *y) {
  return tfuse_snap::same_element(g->kind, g->elem_size, g_ulp_on, g_ulp, x, y);
}

/* Writes element x of region g as text into buf. */
static void format_value(const Region *g, const unsigned char *x, size_t window, char *buf,
                         size_t cap) {
  size_t n = g->elem_size;
  if (g->kind == TFUSE_CHECK_FLOAT && n == sizeof(float)) {
    float f;
    std::memcpy(&f, x, sizeof f);
    std::snprintf(buf, cap, "%.9g (0x%08llx)", (double)f, load_le(x, 4));
  } else if (g->kind == TFUSE_CHECK_DOUBLE && n == sizeof(double)) {
    double d;
    std::memcpy(&d, x, sizeof d);
    std::snprintf(buf, cap, "%.17g (0x%016llx)", d, load_le(x, 8));
  } else if (n == 1 || n == 2 || n == 4 || n == 8) {
    unsigned long long u = load_le(x, n);
    long long v = (long long)u;
    if (n < 8 && (u >> (8 * n - 1)) & 1)
      v = (long long)(u | (~0ull << (8 * n))); /* sign-extend */
    std::snprintf(buf, cap, "%lld (0x%0*llx)", v, (int)(2 * n), u);
  } else {
    /* Up to 8 bytes, from the window start; the caller names the window. */
    size_t len = 0, m = n - window < 8 ? n - window : 8;
    for (size_t i = 0; i < m && len + 4 < cap; i++)
      len += (size_t)std::snprintf(buf + len, cap - len, i ? " %02x" : "%02x", x[window + i]);
  }
}

struct Report {
  const tfuse_check_launch *c;
  unsigned long long count; /* mismatches in this launch */
  /* With TFUSE_CHECK_ULP: float elements whose bits differ within the
   * tolerance, and the largest distance among them. */
  unsigned long long rounded, max_ulp;
  /* The first mismatch, for the log. */
  const char *arg;
  long long element; /* -1: a byte outside the whole elements */
  size_t byte_offset;
  char orig[96], coars[96];
};

static void report_line(Report *r, const Region *g, const char *where, long long element,
                        size_t off, const char *orig, const char *coars) {
  r->count++;
  if (r->count == 1) {
    r->arg = g->arg.c_str();
    r->element = element;
    r->byte_offset = off;
    std::snprintf(r->orig, sizeof r->orig, "%s", orig);
    std::snprintf(r->coars, sizeof r->coars, "%s", coars);
  }
  if (r->count > MAX_MISMATCH_LINES || r->c->nondet)
    return; /* a nondeterministic original's differences are its own: not listed */
  std::fprintf(stderr,
               "tfuse-check: mismatch: kernel '%s' launched at %s: argument '%s' (allocation %p, "
               "%zu bytes), %s: original %s, coarsened %s\n",
               r->c->kernel, r->c->site, g->arg.c_str(), (void *)g->base, g->size, where, orig, coars);
}

static void report_byte(Report *r, const Region *g, size_t off, unsigned char a,
                        unsigned char b) {
  char where[96], va[16], vb[16];
  std::snprintf(where, sizeof where, "byte offset %zu (outside the whole elements)", off);
  std::snprintf(va, sizeof va, "0x%02x", a);
  std::snprintf(vb, sizeof vb, "0x%02x", b);
  report_line(r, g, where, -1, off, va, vb);
}

/* Compares region g: exp (the original's) against got (the coarsened's). */
static void compare_region(Report *r, const Region *g, const unsigned char *exp,
                           const unsigned char *got) {
  if (std::memcmp(exp, got, g->size) == 0)
    return;
  size_t es = g->elem_size;
  size_t first = g->arg_offset % es; /* where the first whole element starts */
  size_t off = 0;
  for (; off < first && off < g->size; off++)
    if (exp[off] != got[off])
      report_byte(r, g, off, exp[off], got[off]);
  for (; off + es <= g->size; off += es) {
    if (same_element(g, exp + off, got + off)) {
      if (std::memcmp(exp + off, got + off, es) != 0) { /* within the tolerance: rounding */
        int bits = es == 8 ? 64 : 32;
        unsigned long long d = tfuse_snap::ulp_distance(tfuse_snap::load_le(exp + off, es),
                                                        tfuse_snap::load_le(got + off, es), bits);
        r->rounded++;
        if (d > r->max_ulp)
          r->max_ulp = d;
      }
      continue;
    }
    long long index = ((long long)off - (long long)g->arg_offset) / (long long)es;
    /* Elements over 8 bytes show 8 of them, from the first that differs. */
    size_t window = 0;
    if (es > 8) {
      while (window < es && exp[off + window] == got[off + window])
        window++;
      if (window > es - 8)
        window = es - 8;
    }
    char where[128], va[96], vb[96];
    if (es > 8)
      std::snprintf(where, sizeof where, "element %lld (byte offset %zu), bytes %zu..%zu of %zu",
                    index, off, window, window + 7, es);
    else
      std::snprintf(where, sizeof where, "element %lld (byte offset %zu)", index, off);
    format_value(g, exp + off, window, va, sizeof va);
    format_value(g, got + off, window, vb, sizeof vb);
    report_line(r, g, where, index, off, va, vb);
  }
  for (; off < g->size; off++)
    if (exp[off] != got[off])
      report_byte(r, g, off, exp[off], got[off]);
}

extern "C" void tfuse_check_coarsened_done(tfuse_check_launch *c) {
  check_launch(c, "coarsened");
  KernelStats *s = c->stats;
  if (c->unchecked) {
    s->unchecked++;
    s->unchecked_by[TFUSE_CHECK_HOST_MEMORY]++;
    log_reason(c->kernel, c->site, "not-checked", TFUSE_CHECK_HOST_MEMORY, c->unchecked_reason);
    free_launch(c);
    g_lock.unlock();
    return;
  }
  Report r;
  r.c = c;
  r.count = 0;
  r.rounded = r.max_ulp = 0;
  /* The device tells which regions are the same; the others come to the
   * host, where they are compared and reported element by element. */
  std::vector<char> same;
  compare_on_device(c, &same);
  for (size_t i = 0; i < c->regions.size(); i++) {
    Region *g = &c->regions[i];
    if (same[i])
      continue;
    char what[160];
    if (g->expected_dev) {
      g->expected = host_take(c, g->size);
      std::snprintf(what, sizeof what, "copying what the original wrote to argument '%s'", g->arg.c_str());
      check_cuda(c, cudaMemcpyAsync(g->expected.p, g->expected_dev, g->size, cudaMemcpyDefault, c->stream),
                 what);
    }
    HostBuf got = host_take(c, g->size);
    std::snprintf(what, sizeof what, "copying what the coarsened kernel wrote to argument '%s'",
                  g->arg.c_str());
    check_cuda(c, cudaMemcpyAsync(got.p, g->base, g->size, cudaMemcpyDefault, c->stream), what);
    check_cuda(c, cudaStreamSynchronize(c->stream), what);
    compare_region(&r, g, g->expected.p, got.p);
    host_give(&got);
    host_give(&g->expected);
  }
  if (r.count > MAX_MISMATCH_LINES)
    std::fprintf(stderr, "tfuse-check:   ... and %llu more %s in this launch\n",
                 r.count - MAX_MISMATCH_LINES,
                 plural(r.count - MAX_MISMATCH_LINES, "mismatch", "mismatches"));
  if (!r.count && c->blind >= 0) {
    /* What was compared is the same, but not everything was. */
    s->unchecked++;
    s->unchecked_by[c->blind]++;
    if (!s->warned_blind[c->blind]) {
      s->warned_blind[c->blind] = true;
      std::fprintf(stderr,
                   "tfuse-check: warning: kernel '%s' launched at %s: not everything it writes can be "
                   "snapshot (%s: %s); launches like this one are compared where they were snapshot and "
                   "counted unchecked when that part is the same\n",
                   c->kernel, c->site, category_words[c->blind], c->blind_reason);
    }
    log_reason(c->kernel, c->site, "not-checked", c->blind, c->blind_reason);
    free_launch(c);
    g_lock.unlock();
    return;
  }
  if (r.count && c->nondet) {
    /* The original itself wrote something else the second time: what the
     * coarsened kernel wrote cannot be judged against it. */
    s->nondet++;
    if (!s->warned_nondet) {
      s->warned_nondet = true;
      std::fprintf(stderr,
                   "tfuse-check: warning: kernel '%s' launched at %s: the original writes something else when run "
                   "again from the same state (atomics, races, clocks); launches like this one are not compared\n",
                   c->kernel, c->site);
    }
    if (g_log) {
      log_begin(c->kernel, c->site, "nondeterministic");
      std::fprintf(g_log, ",\"mismatches\":%llu", r.count);
      log_end();
    }
    free_launch(c);
    g_lock.unlock();
    return;
  }
  s->checked++;
  s->mismatches += r.count;
  if (r.count)
    s->differing++;
  else if (r.rounded)
    s->rounding++;
  if (g_log) {
    log_begin(c->kernel, c->site, r.count ? "differs" : r.rounded ? "rounding" : "identical");
    if (!r.count && r.rounded)
      std::fprintf(g_log, ",\"elements\":%llu,\"max_ulp\":%llu", r.rounded, r.max_ulp);
    if (r.count) {
      std::fprintf(g_log, ",\"mismatches\":%llu", r.count);
      log_string(",\"argument\":", r.arg);
      if (r.element >= 0)
        std::fprintf(g_log, ",\"element\":%lld", r.element);
      else
        std::fputs(",\"element\":null", g_log);
      std::fprintf(g_log, ",\"byte_offset\":%zu", r.byte_offset);
      log_string(",\"original\":", r.orig);
      log_string(",\"coarsened\":", r.coars);
    }
    log_end();
  }
  free_launch(c);
  if (r.count && g_fatal)
    std::exit(1); /* the summary is printed at exit */
  g_lock.unlock();
}

extern "C" void tfuse_check_abandon(tfuse_check_launch *c) {
  free_launch(c);
  g_lock.unlock();
}
