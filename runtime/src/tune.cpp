/* tfuse tuning runtime: picks, per launch key, the fastest of a kernel's
 * variants whose output is the original's.  The library behind
 * <tfuse/tune.h> (the header the output of `tfuse -factor auto` contains);
 * host C++ on the CUDA runtime and driver APIs, sharing the snapshot and
 * comparison code of the check runtime (snapshot.h).  Needs -lcuda.
 *
 * Key: kernel name (followed by " in " and the enclosing function's
 * __PRETTY_FUNCTION__ for a launch in a host template whose kernel depends
 * on the template's parameters: each instantiation launches another
 * kernel), hash of the variants' source, grid, block, dynamic shared size,
 * device name and SM count.  For a key, in this order:
 *   - a decision taken earlier in this process;
 *   - the wisdom file's entry (TFUSE_WISDOM=PATH, default
 *     $XDG_CACHE_HOME/tfuse/wisdom or ~/.cache/tfuse/wisdom);
 *   - TFUSE_TUNE=0: the original (candidate 0), nothing measured;
 *   - tuning, on the first launch with the key: the allocations behind the
 *     writable pointer arguments are snapshot; each candidate that can run
 *     with this block (thread mode: the factor divides the block, and for
 *     a kernel with warp-synchronous code the quotient is whole warps) and
 *     dynamic shared size (block mode dividing an extern __shared__ array:
 *     its shares fit the device, see feasible) runs
 *     once untimed, the check run, and what it wrote is compared with what
 *     the original wrote, bitwise, or within TFUSE_CHECK_ULP units in the
 *     last place for float and double arguments; a candidate that differs,
 *     or fails to launch, is disqualified.  A qualified one then runs
 *     TFUSE_TUNE_RUNS times (default 5), timed with CUDA events behind a
 *     gate (below), the median counting; its timed runs stop once they add
 *     up to TFUSE_TUNE_LIMIT_MS (default 1000; one at least).  Where the
 *     original's check run alone takes longer than that limit, the key is
 *     not tuned: nothing else runs and the original is the decision (a
 *     launch of 19 s, tuned, would cost the program minutes; untuned it
 *     costs one more run of the original).  Memory is restored before every
 *     run.  The fastest remaining candidate wins (the original on a tie),
 *     memory is restored, and the caller runs the winner for real.
 *     The decision is added to the wisdom file (wisdom.h): under a lock
 *     on a file beside it, read again, merged, written to a temporary file
 *     beside it and renamed over it, so concurrent programs keep every
 *     decision and leave a whole file.
 * A launch with an empty grid or block is not tuned (each candidate would
 * fail as the original does): the original runs and reports the error.
 * Tuning does not happen, and the wisdom entry or else the original runs,
 * with a message once per kernel, when a writable argument is not in a
 * device allocation (it cannot be snapshot), when the stream is being
 * captured into a CUDA graph, or when tfuse found the kernel unsafe to run
 * repeatedly (it prints, or writes memory no argument points to).
 * A wisdom file that cannot be read as one is ignored with a warning.
 *
 * The gate: two events around one launch time the launch's latency on the
 * host as well as the kernel whenever the GPU reaches the first event before
 * the host has queued the launch: for a kernel of a few microseconds that
 * latency is most of what is measured (seen on the H200: an event-timed
 * 8 us for a vector add of 1.5 us, which made a slower candidate win).  So
 * each timed run is queued behind a one-thread kernel that spins until the
 * host opens the gate, after queuing both events and the launch, or 100 ms
 * have passed (the blocking kernel of NVBench): the GPU then runs event,
 * kernel, event back to back.  The gate kernel is PTX loaded through the
 * driver API once per context; where that fails, runs are timed without it
 * (said once with TFUSE_TUNE_REPORT).  The check run is not gated: a
 * kernel's first launch may load its module (CUDA's lazy loading), and the
 * load waits for running kernels, here for the gate's time limit.  A timed
 * run that the limit released is counted and said with TFUSE_TUNE_REPORT.
 *
 * Output, on stderr, lines starting with "tfuse-tune: ": with
 * TFUSE_TUNE_REPORT=1 (set, not empty, not "0") each key's table of
 * candidates, median times, speedups over the original and the winner, or
 * the wisdom entry used, and at exit one line per key with its launches:
 *   tfuse-tune: launches: kernel 'k' at f.cu:42, grid (..) block (..) smem 0, DEV (132 SMs): 40 ran block.x:4
 * (with ", 0.2500 ms each, original 1.0000 ms" where the choice was timed);
 * warnings always.  scripts/tfuse-report joins these with -report-json.
 *
 * The wisdom file's format and its lock: runtime/src/wisdom.h. */
#include "../include/tfuse/tune.h"
#include "snapshot.h"
#include "wisdom.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using tfuse_snap::env_flag;

namespace {

using tfuse_wisdom::Decision;

std::mutex g_lock;
bool g_started;
bool g_tune = true, g_report;
int g_runs = 5;
double g_limit_ms = 1000; /* TFUSE_TUNE_LIMIT_MS */
bool g_ulp_on;
unsigned long long g_ulp;
std::string g_wisdom_path;
std::map<std::string, Decision> g_decided; /* this process */
std::map<std::string, Decision> g_wisdom;  /* read from the file */
std::map<std::string, bool> g_said;        /* messages said once */

void say_once(const std::string &what, const char *fmt, const char *a, const char *b) {
  if (g_said[what])
    return;
  g_said[what] = true;
  std::fprintf(stderr, "tfuse-tune: ");
  std::fprintf(stderr, fmt, a, b);
  std::fputc('\n', stderr);
}

/* Adds one decision to the file. */
void save_wisdom(const std::string &key, const Decision &d) {
  std::string why;
  if (!tfuse_wisdom::save(g_wisdom_path, key, d, &why))
    say_once("save", "warning: %s%s; decisions are not kept", why.c_str(), "");
}

void print_counts();

void start_once() {
  if (g_started)
    return;
  g_started = true;
  const char *t = std::getenv("TFUSE_TUNE");
  g_tune = !(t && std::strcmp(t, "0") == 0);
  g_report = env_flag("TFUSE_TUNE_REPORT");
  if (g_report)
    std::atexit(print_counts);
  const char *r = std::getenv("TFUSE_TUNE_RUNS");
  if (r && std::atoi(r) > 0)
    g_runs = std::atoi(r);
  const char *l = std::getenv("TFUSE_TUNE_LIMIT_MS");
  if (l && std::atof(l) > 0)
    g_limit_ms = std::atof(l);
  tfuse_snap::read_ulp("tfuse-tune", &g_ulp_on, &g_ulp);
  const char *w = std::getenv("TFUSE_WISDOM");
  g_wisdom_path = w && w[0] ? w : tfuse_wisdom::default_path();
  if (!tfuse_wisdom::read(g_wisdom_path, g_wisdom))
    std::fprintf(stderr, "tfuse-tune: warning: ignoring the wisdom file '%s': it is not a tfuse wisdom file "
                         "(or is damaged); it will be rewritten\n", g_wisdom_path.c_str());
}

/* The kernel as the key and the messages name it: with the instantiation
 * of the host template that launches it, where that decides the kernel. */
std::string kernel_name(const tfuse_tune_site *s) {
  std::string k = s->kernel;
  if (s->instance) {
    std::string in = s->instance;
    std::replace(in.begin(), in.end(), '\t', ' ');
    std::replace(in.begin(), in.end(), '\n', ' ');
    k += " in " + in;
  }
  return k;
}

unsigned int component(dim3 v, int d) { return d == 0 ? v.x : d == 1 ? v.y : v.z; }

/* Every shape a site has seen, with its choice: a site launched with
 * several shapes in turn (a reduction's shrinking grids) misses the
 * site's one-entry cache in <tfuse/tune.h> at every launch; this finds the
 * choice without building the key or asking the device's properties. */
struct ShapeKey {
  const void *site;
  int dev;
  unsigned int shape[6];
  size_t smem;
  bool operator<(const ShapeKey &o) const { return std::memcmp(this, &o, sizeof *this) < 0; }
};
std::map<ShapeKey, int> g_shapes;

/* The launches of each shape key (TFUSE_TUNE_REPORT): a site counts the
 * launches of its last key itself (tfuse_tune_site.launches, in
 * <tfuse/tune.h>'s steady state) and adds them here when its key changes
 * and at exit. */
std::map<ShapeKey, unsigned long long> g_counts;
std::vector<tfuse_tune_site *> g_sites;

void flush_count(tfuse_tune_site *s) {
  unsigned long long n = __atomic_exchange_n(&s->launches, 0ULL, __ATOMIC_RELAXED);
  if (s->counted)
    *(unsigned long long *)s->counted += n;
}

/* This launch, of shape key k at site s: counted into k's record, which
 * the site's next launches of k go on counting into. */
void count_launch(tfuse_tune_site *s, const ShapeKey &k) {
  if (!s->counted)
    g_sites.push_back(s);
  flush_count(s);
  unsigned long long &n = g_counts[k];
  n++;
  s->counted = &n;
}

ShapeKey shape_key(const tfuse_tune_site *s, int dev, dim3 g, dim3 b, size_t smem) {
  ShapeKey k;
  std::memset(&k, 0, sizeof k); /* padding too: compared with memcmp */
  k.site = s;
  k.dev = dev;
  unsigned int v[6] = {g.x, g.y, g.z, b.x, b.y, b.z};
  std::memcpy(k.shape, v, sizeof v);
  k.smem = smem;
  return k;
}

/* A device's name and SM count, asked once per device, with the two
 * queries that are cheap (cudaGetDeviceProperties fills a hundred fields
 * and took long enough to show in programs that time ten launches). */
struct DeviceInfo {
  bool ok;
  std::string name;
  int sms, optin; /* optin: the most shared memory a block may have (cudaDevAttrMaxSharedMemoryPerBlockOptin) */
};
std::map<int, DeviceInfo> g_devices;

const DeviceInfo &device_info(int dev) {
  std::map<int, DeviceInfo>::iterator it = g_devices.find(dev);
  if (it != g_devices.end())
    return it->second;
  DeviceInfo d;
  char name[256] = {0};
  CUdevice cu;
  d.sms = 0;
  d.ok = cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
         cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&cu, dev) == CUDA_SUCCESS &&
         cuDeviceGetName(name, (int)sizeof name - 1, cu) == CUDA_SUCCESS;
  if (!d.ok)
    cudaGetLastError();
  d.name = d.ok ? name : "";
  if (cudaDeviceGetAttribute(&d.optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
    cudaGetLastError();
    d.optin = 48 * 1024;
  }
  return g_devices[dev] = d;
}

/* Whether candidate c can run a launch with this block and dynamic shared
 * size on device dev; where not, *why (if given) says so.  Thread mode:
 * the factor divides the block (in whole warps where the kernel needs
 * them).  A candidate that divides an extern __shared__ array asks for
 * `factor` shares of the size, each rounded up to 16 bytes: with its
 * static bytes they must fit what the device allows a block, as the fixed
 * factor's launch checks (prelude.h dyn_shared_check), and above what the
 * variant may have now it is opted in here, before any launch of it (only
 * ever raised: a size seen before keeps what it needed).  Without the
 * variant's address (a template kernel's launch that deduces its
 * arguments) the shares must fit in the 48 KB a launch gets unasked. */
bool feasible(const tfuse_tune_cand &c, dim3 block, size_t smem, int dev, std::string *why) {
  char b[256];
  unsigned int n = component(block, c.dim);
  if (c.mode >= 2 && (n % c.factor != 0 || (c.mode == 3 && n / c.factor % 32 != 0))) {
    std::snprintf(b, sizeof b, "skipped: blockDim.%c = %u is not a multiple of %u", "xyz"[c.dim], n, c.factor);
    if (why)
      *why = b;
    return false;
  }
  if (c.mode != 1 || !c.divides_smem)
    return true;
  size_t dyn = (size_t)c.factor * ((smem + 15) / 16 * 16), fixed = 0, limit = 48 * 1024;
  cudaFuncAttributes fa;
  if (c.kernel) {
    if (cudaFuncGetAttributes(&fa, c.kernel) != cudaSuccess) {
      cudaGetLastError();
      if (why)
        *why = "skipped: its attributes cannot be read";
      return false;
    }
    fixed = fa.sharedSizeBytes;
    limit = (size_t)device_info(dev).optin;
  }
  if (dyn + fixed > limit) {
    std::snprintf(b, sizeof b, "skipped: needs %zu bytes of shared memory per block (%u shares of the dynamic size "
                  "and %zu static), over the %zu %s", dyn + fixed, c.factor, fixed, limit,
                  c.kernel ? "this device allows" : "a launch gets without opting in");
    if (why)
      *why = b;
    return false;
  }
  if (c.kernel && dyn > (size_t)fa.maxDynamicSharedSizeBytes &&
      cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn) != cudaSuccess) {
    cudaGetLastError();
    if (why)
      *why = "skipped: opting in to its shared memory failed";
    return false;
  }
  return true;
}

int index_of(const tfuse_tune_site *s, const std::string &label, dim3 block, size_t smem, int dev) {
  for (int i = 0; i < s->ncand; i++)
    if (label == s->cand[i].label)
      return feasible(s->cand[i], block, smem, dev, 0) ? i : -1;
  return -1;
}

/* The site's one-entry cache, which <tfuse/tune.h> reads without the lock. */
void cache_site(tfuse_tune_site *s, int dev, dim3 g, dim3 b, size_t smem, int choice) {
  s->last_choice = choice;
  s->last_device = dev;
  s->last_shape[0] = g.x;
  s->last_shape[1] = g.y;
  s->last_shape[2] = g.z;
  s->last_shape[3] = b.x;
  s->last_shape[4] = b.y;
  s->last_shape[5] = b.z;
  s->last_smem = smem;
  s->cached = 1;
}

/* A decision for this site and shape: remembered for every shape, and as
 * the site's last. */
void cache(tfuse_tune_site *s, int dev, dim3 g, dim3 b, size_t smem, int choice) {
  g_shapes[shape_key(s, dev, g, b, smem)] = choice;
  cache_site(s, dev, g, b, smem, choice);
}

struct Region {
  unsigned char *base;
  size_t size;
  const char *arg;
  int kind;
  size_t elem_size, arg_offset;
  void *snapshot;
  std::vector<unsigned char> expected;
};

std::string shape(dim3 v) {
  char b[64];
  std::snprintf(b, sizeof b, "%u,%u,%u", v.x, v.y, v.z);
  return b;
}

/* A launch's key (the wisdom file's seven fields) and how messages name it. */
std::string launch_key(const tfuse_tune_site *s, dim3 grid, dim3 block, size_t smem, const DeviceInfo &info) {
  char sms[32], bytes[32];
  std::snprintf(sms, sizeof sms, "%d", info.sms);
  std::snprintf(bytes, sizeof bytes, "%zu", smem);
  std::string name = info.name;
  std::replace(name.begin(), name.end(), '\t', ' ');
  return kernel_name(s) + "\t" + s->hash + "\t" + shape(grid) + "\t" + shape(block) + "\t" + bytes + "\t" + name +
         "\t" + sms;
}

std::string launch_where(const tfuse_tune_site *s, dim3 grid, dim3 block, size_t smem, const DeviceInfo &info) {
  char where[512];
  std::snprintf(where, sizeof where, " at %s, grid (%s) block (%s) smem %zu, %s (%d SMs)", s->site,
                shape(grid).c_str(), shape(block).c_str(), smem, info.name.c_str(), info.sms);
  return "kernel '" + kernel_name(s) + "'" + where;
}

/* At exit, with TFUSE_TUNE_REPORT: each shape key's launches, the
 * candidate they ran and, where it was timed, its median and the
 * original's (no CUDA call: the devices were asked before). */
void print_counts() {
  /* An exit from inside the runtime (fatal(), with the lock held) says
   * nothing more: waiting for the lock would never end. */
  std::unique_lock<std::mutex> guard(g_lock, std::try_to_lock);
  if (!guard.owns_lock())
    return;
  for (size_t i = 0; i < g_sites.size(); i++)
    flush_count(g_sites[i]);
  for (std::map<ShapeKey, unsigned long long>::const_iterator it = g_counts.begin(); it != g_counts.end(); ++it) {
    const ShapeKey &k = it->first;
    const tfuse_tune_site *s = (const tfuse_tune_site *)k.site;
    std::map<int, DeviceInfo>::const_iterator dev = g_devices.find(k.dev);
    if (dev == g_devices.end() || !dev->second.ok)
      continue;
    dim3 grid(k.shape[0], k.shape[1], k.shape[2]), block(k.shape[3], k.shape[4], k.shape[5]);
    std::map<ShapeKey, int>::const_iterator c = g_shapes.find(k);
    const char *label = s->cand[c != g_shapes.end() ? c->second : 0].label;
    std::map<std::string, Decision>::const_iterator d =
        g_decided.find(launch_key(s, grid, block, k.smem, dev->second));
    char times[128] = "";
    if (d != g_decided.end() && d->second.label == label)
      std::snprintf(times, sizeof times, ", %.4f ms each, original %.4f ms", d->second.ms, d->second.orig_ms);
    std::fprintf(stderr, "tfuse-tune: launches: %s: %llu ran %s%s\n",
                 launch_where(s, grid, block, k.smem, dev->second).c_str(), it->second, label, times);
  }
}

/* The environment and the wisdom file are read when the program loads,
 * not at its first tuned launch: file input there added about 0.1 ms to the
 * first launch, which programs that time a few short launches count (seen
 * on the outside corpus). No CUDA call is made here. */
struct StartAtLoad {
  StartAtLoad() {
    std::lock_guard<std::mutex> guard(g_lock);
    start_once();
  }
} g_start_at_load;

} // namespace

struct tfuse_tune_launch {
  tfuse_tune_site *site;
  std::string key, where;
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
  int device;
  const char *unsnapshotable; /* the argument that cannot be snapshot */
  std::vector<Region> regions;
};

extern "C" int tfuse_tune_choose(tfuse_tune_site *s, dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                                 tfuse_tune_launch **tune) {
  *tune = 0;
  std::lock_guard<std::mutex> guard(g_lock);
  start_once();
  if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
    return 0; /* an empty launch fails whichever candidate runs: the original's launch reports it */
  int dev = 0;
  cudaGetDevice(&dev);
  if (g_report)
    count_launch(s, shape_key(s, dev, grid, block, smem));
  std::map<ShapeKey, int>::const_iterator seen = g_shapes.find(shape_key(s, dev, grid, block, smem));
  if (seen != g_shapes.end()) {
    cache_site(s, dev, grid, block, smem, seen->second);
    return seen->second;
  }
  const DeviceInfo &info = device_info(dev);
  if (!info.ok)
    return 0; /* the original's launch reports what is wrong */
  std::string key = launch_key(s, grid, block, smem, info);

  std::map<std::string, Decision>::const_iterator it = g_decided.find(key);
  if (it != g_decided.end()) {
    int c = index_of(s, it->second.label, block, smem, dev);
    cache(s, dev, grid, block, smem, c < 0 ? 0 : c);
    return c < 0 ? 0 : c;
  }
  it = g_wisdom.find(key);
  if (it != g_wisdom.end()) {
    int c = index_of(s, it->second.label, block, smem, dev);
    if (c >= 0) {
      g_decided[key] = it->second;
      if (g_report)
        std::fprintf(stderr, "tfuse-tune: %s: %s, from the wisdom file (%.4f ms, original %.4f ms)\n",
                     launch_where(s, grid, block, smem, info).c_str(), it->second.label.c_str(), it->second.ms,
                     it->second.orig_ms);
      cache(s, dev, grid, block, smem, c);
      return c;
    }
  }
  if (!g_tune || s->ncand < 2) {
    cache(s, dev, grid, block, smem, 0);
    return 0;
  }
  if (s->untunable) {
    say_once(std::string("untunable ") + s->kernel,
             "kernel '%s' is not tuned (%s); it runs its wisdom entry or the original", s->kernel, s->untunable);
    cache(s, dev, grid, block, smem, 0);
    return 0;
  }
  cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &cap) != cudaSuccess) {
    cudaGetLastError();
    cap = cudaStreamCaptureStatusActive;
  }
  if (cap != cudaStreamCaptureStatusNone) {
    say_once(std::string("capture ") + s->kernel,
             "kernel '%s' launched at %s during CUDA graph capture: not tuned; it runs its wisdom entry or the "
             "original", s->kernel, s->site);
    return 0;
  }
  tfuse_tune_launch *t = new tfuse_tune_launch;
  t->site = s;
  t->key = key;
  t->where = launch_where(s, grid, block, smem, info);
  t->grid = grid;
  t->block = block;
  t->smem = smem;
  t->stream = stream;
  t->device = dev;
  t->unsnapshotable = 0;
  *tune = t;
  return 0;
}

extern "C" void tfuse_tune_track(tfuse_tune_launch *t, const void *p, int kind, size_t elem_size, const char *arg) {
  if (!t || !p || t->unsnapshotable)
    return;
  Region g;
  const char *err = 0;
  if (!tfuse_snap::allocation_of(p, &g.base, &g.size, &err)) {
    t->unsnapshotable = arg;
    return;
  }
  for (size_t i = 0; i < t->regions.size(); i++)
    if (t->regions[i].base == g.base)
      return;
  g.arg = arg;
  g.kind = kind;
  g.elem_size = elem_size ? elem_size : 1;
  g.arg_offset = (size_t)((const unsigned char *)p - g.base);
  g.snapshot = 0;
  t->regions.push_back(g);
}

namespace {

void fatal(const tfuse_tune_launch *t, const char *what, cudaError_t e) {
  std::fprintf(stderr, "tfuse-tune: error: %s: %s: %s\n", t->where.c_str(), what, cudaGetErrorString(e));
  std::exit(1);
}

void must(const tfuse_tune_launch *t, cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    fatal(t, what, e);
}

/* The gate kernel (see the header): spins until flag[0] != 0 or limit_ns
 * have passed on the GPU's global timer; in the second case it sets flag[1]
 * (the run is timed as without a gate). */
const char k_gate_ptx[] = R"PTX(
.version 6.0
.target sm_50
.address_size 64
.visible .entry tfuse_tune_gate(.param .u64 gate_flag, .param .u64 gate_limit)
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [gate_flag];
  ld.param.u64 %rd2, [gate_limit];
  cvta.to.global.u64 %rd3, %rd1;
  mov.u64 %rd4, %globaltimer;
$L_spin:
  ld.volatile.global.u32 %r1, [%rd3];
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L_done;
  mov.u64 %rd5, %globaltimer;
  sub.s64 %rd6, %rd5, %rd4;
  setp.lt.u64 %p2, %rd6, %rd2;
  @%p2 bra $L_spin;
  mov.u32 %r1, 1;
  st.volatile.global.u32 [%rd3+4], %r1;
$L_done:
  ret;
}
)PTX";

/* How long the gate holds a stream at most (the gate kernel's limit_ns). */
const unsigned long long k_gate_limit_ns = 100000000ull;

struct Gate {
  CUfunction fn;
  volatile unsigned *flag; /* mapped, pinned host memory: open, expired */
  CUdeviceptr dflag;
};
std::map<CUcontext, Gate *> g_gates; /* a null Gate: could not be made in that context */

/* The current context's gate, made on first use; null where it cannot be. */
Gate *gate_for_context() {
  CUcontext ctx = 0;
  if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx)
    return 0;
  std::map<CUcontext, Gate *>::iterator it = g_gates.find(ctx);
  if (it != g_gates.end())
    return it->second;
  Gate *g = new Gate();
  CUmodule mod;
  void *host = 0;
  if (cuModuleLoadData(&mod, k_gate_ptx) != CUDA_SUCCESS ||
      cuModuleGetFunction(&g->fn, mod, "tfuse_tune_gate") != CUDA_SUCCESS ||
      cuMemHostAlloc(&host, 2 * sizeof(unsigned), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) !=
          CUDA_SUCCESS ||
      cuMemHostGetDevicePointer(&g->dflag, host, 0) != CUDA_SUCCESS) {
    delete g;
    g = 0;
    if (g_report)
      std::fprintf(stderr, "tfuse-tune: note: the timing gate could not be made: runs are timed without it\n");
  } else {
    g->flag = (volatile unsigned *)host;
  }
  g_gates[ctx] = g;
  return g;
}

/* Closes the gate on the stream: later work there waits until gate_open(),
 * or the time limit.  gate_expired() after the stream reached the gate's
 * work: whether the limit ended the wait. */
bool gate_close(Gate *g, cudaStream_t stream) {
  if (!g)
    return false;
  g->flag[0] = 0;
  g->flag[1] = 0;
  unsigned long long limit_ns = k_gate_limit_ns;
  void *args[] = {&g->dflag, &limit_ns};
  return cuLaunchKernel(g->fn, 1, 1, 1, 1, 1, 1, 0, (CUstream)stream, args, 0) == CUDA_SUCCESS;
}

void gate_open(Gate *g, bool closed) {
  if (closed) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    g->flag[0] = 1;
  }
}

bool gate_expired(Gate *g, bool closed) { return closed && g->flag[1] != 0; }

void restore(const tfuse_tune_launch *t) {
  for (size_t i = 0; i < t->regions.size(); i++)
    must(t, cudaMemcpyAsync(t->regions[i].base, t->regions[i].snapshot, t->regions[i].size, cudaMemcpyDefault,
                            t->stream), "restoring an argument from its snapshot");
}

void free_launch(tfuse_tune_launch *t) {
  for (size_t i = 0; i < t->regions.size(); i++)
    if (t->regions[i].snapshot)
      cudaFree(t->regions[i].snapshot);
  delete t;
}

struct Result {
  std::vector<float> ms;
  double median;
  std::string status; /* empty: qualified */
};

} // namespace

extern "C" int tfuse_tune_run(tfuse_tune_launch *t, void (*launch)(void *, int), void *ctx) {
  std::lock_guard<std::mutex> guard(g_lock);
  tfuse_tune_site *s = t->site;
  if (t->unsnapshotable) {
    say_once(std::string("unsnapshotable ") + s->kernel,
             "kernel '%s': argument '%s' is not in a CUDA device allocation, so it cannot be snapshot: not tuned; "
             "it runs its wisdom entry or the original", s->kernel, t->unsnapshotable);
    free_launch(t);
    return 0;
  }
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  cudaError_t pending = cudaGetLastError();
  if (pending != cudaSuccess)
    std::fprintf(stderr, "tfuse-tune: warning: %s: clearing an earlier CUDA error that nobody read: %s\n",
                 t->where.c_str(), cudaGetErrorString(pending));
  must(t, cudaStreamSynchronize(t->stream), "synchronising the stream before tuning");
  for (size_t i = 0; i < t->regions.size(); i++) {
    Region &g = t->regions[i];
    must(t, cudaMalloc(&g.snapshot, g.size), "allocating a snapshot");
    must(t, cudaMemcpyAsync(g.snapshot, g.base, g.size, cudaMemcpyDefault, t->stream), "snapshotting an argument");
  }
  Gate *gate = gate_for_context();
  cudaEvent_t e0, e1;
  must(t, cudaEventCreate(&e0), "creating an event");
  must(t, cudaEventCreate(&e1), "creating an event");
  std::vector<Result> res(s->ncand);
  std::vector<unsigned char> got;
  int launches = 0, expired = 0;
  float slow_ms = 0; /* the original's check run, where it passed the limit: nothing else runs */
  for (int c = 0; c < s->ncand && !slow_ms; c++) {
    Result &r = res[c];
    if (!feasible(s->cand[c], t->block, t->smem, t->device, &r.status))
      continue;
    /* Run 0 checks the output and is neither timed nor gated: a kernel's
     * first launch may load its module (lazy loading), which waits for the
     * running gate kernel, i.e. for the gate's time limit.  Timed runs stop
     * once they add up to the limit (one at least). */
    float spent = 0;
    for (int rep = 0; rep <= g_runs && r.status.empty() && (rep < 2 || spent < g_limit_ms); rep++) {
      restore(t);
      bool closed = rep > 0 && gate_close(gate, t->stream);
      must(t, cudaEventRecord(e0, t->stream), "recording an event");
      launch(ctx, c);
      launches++;
      cudaError_t le = cudaGetLastError();
      if (le == cudaSuccess)
        le = cudaEventRecord(e1, t->stream);
      gate_open(gate, closed);
      if (le != cudaSuccess) {
        if (c == 0) {
          /* Not tuned: the caller's launch of the original meets the same error. */
          restore(t);
          must(t, cudaStreamSynchronize(t->stream), "synchronising after a failed launch");
          cudaEventDestroy(e0);
          cudaEventDestroy(e1);
          free_launch(t);
          return 0;
        }
        r.status = std::string("disqualified: launch failed: ") + cudaGetErrorString(le);
        break;
      }
      must(t, cudaEventSynchronize(e1), c == 0 ? "the original kernel failed" : "a candidate kernel failed");
      float ms = 0;
      must(t, cudaEventElapsedTime(&ms, e0, e1), "reading an event");
      if (rep > 0) {
        expired += gate_expired(gate, closed);
        r.ms.push_back(ms);
        spent += ms;
        continue;
      }
      if (c == 0 && ms > g_limit_ms) { /* not tuned: the original runs, its check run's time recorded */
        r.ms.push_back(ms);
        slow_ms = ms;
        break;
      }
      /* After the first run: what it wrote, against the original's. */
      for (size_t i = 0; i < t->regions.size() && r.status.empty(); i++) {
        Region &g = t->regions[i];
        std::vector<unsigned char> &dst = c == 0 ? g.expected : got;
        dst.resize(g.size);
        must(t, cudaMemcpy(dst.data(), g.base, g.size, cudaMemcpyDefault), "copying what a kernel wrote");
        if (c == 0)
          continue;
        size_t first = 0;
        unsigned long long n = tfuse_snap::count_differences(g.kind, g.elem_size, g.arg_offset, g.size, g_ulp_on,
                                                             g_ulp, g.expected.data(), got.data(), &first);
        if (n) {
          char b[256];
          std::snprintf(b, sizeof b, "disqualified: %llu %s of argument '%s' differ from the original's (first at "
                        "byte offset %zu)", n, n == 1 ? "element" : "elements", g.arg, first);
          r.status = b;
        }
      }
    }
    if (!r.ms.empty()) {
      std::vector<float> v = r.ms;
      std::sort(v.begin(), v.end());
      r.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    }
  }
  if (slow_ms) {
    char b[160];
    std::snprintf(b, sizeof b, "not run: the original's launch took %.1f ms, over the tuning limit (%.0f ms, "
                  "TFUSE_TUNE_LIMIT_MS)", slow_ms, g_limit_ms);
    for (int c = 1; c < s->ncand; c++)
      if (res[c].status.empty())
        res[c].status = b;
  }
  restore(t);
  must(t, cudaStreamSynchronize(t->stream), "synchronising after tuning");
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  int win = 0;
  for (int c = 1; c < s->ncand; c++)
    if (res[c].status.empty() && !res[c].ms.empty() && res[c].median < res[win].median)
      win = c;
  double cost = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  Decision d;
  d.label = s->cand[win].label;
  d.ms = res[win].median;
  d.orig_ms = res[0].median;
  g_decided[t->key] = d;
  save_wisdom(t->key, d);
  if (g_report) {
    std::fprintf(stderr, "tfuse-tune: %s:\n", t->where.c_str());
    std::fprintf(stderr, "tfuse-tune:   %-24s %12s %10s  %s\n", "candidate", "median ms", "speedup", "status");
    for (int c = 0; c < s->ncand; c++) {
      const Result &r = res[c];
      char ms[32] = "-", sp[32] = "-";
      if (!r.ms.empty()) {
        std::snprintf(ms, sizeof ms, "%.4f", r.median);
        std::snprintf(sp, sizeof sp, "%.2fx", r.median > 0 ? res[0].median / r.median : 0.0);
      }
      std::fprintf(stderr, "tfuse-tune:   %-24s %12s %10s  %s\n", s->cand[c].label, ms, sp,
                   c == win ? "winner" : r.status.empty() ? "ok" : r.status.c_str());
    }
    if (slow_ms)
      std::fprintf(stderr, "tfuse-tune:   chose %s; not tuned (a launch over the limit); tuning took %.1f ms and "
                   "%d launch\n", d.label.c_str(), cost, launches);
    else
      std::fprintf(stderr, "tfuse-tune:   chose %s; tuning took %.1f ms and %d launches (a check run and up to %d "
                   "timed runs each, fewer where they passed %.0f ms)\n", d.label.c_str(), cost, launches, g_runs,
                   g_limit_ms);
    if (expired)
      std::fprintf(stderr, "tfuse-tune:   note: %d timed %s outlasted the gate's %llu ms limit: %s the launch "
                   "latency\n", expired, expired == 1 ? "run" : "runs", k_gate_limit_ns / 1000000,
                   expired == 1 ? "its time includes" : "their times include");
  }
  cache(s, t->device, t->grid, t->block, t->smem, win);
  free_launch(t);
  return win;
}
