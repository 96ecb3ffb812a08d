/* The check runtime on the host: launches in the shape `tfuse -check`
 * emits, with host loops for the original and the coarsened "kernel" and
 * fake-cuda.cpp for CUDA, so that runtime/src/check.cpp's snapshots,
 * comparisons and reports run without a GPU.  The cases mirror
 * test/gpu/check-runtime.
 *
 * `sim reach` makes the launches whose written memory is reached other than
 * through a pointer argument: a struct of pointers by value, a table of
 * pointers, a __device__ variable (a host one here), a blind spot, too many
 * allocations behind a table, a variable without an address.
 *
 * usage: sim [all|launch-error|pending|reach]    (default all) */
#include <tfuse/check.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

void *fake_device_alloc(size_t size);
void fake_fail_next_launch(cudaError_t e);
void fake_symbol_missing(const void *sym);

template <class T> static T *dev(size_t n) { return (T *)fake_device_alloc(n * sizeof(T)); }

static float f_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static uint32_t bits_f(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
static double d_up(double d) { /* one ulp up, d > 0 */
  uint64_t u;
  std::memcpy(&u, &d, 8);
  u++;
  std::memcpy(&d, &u, 8);
  return d;
}

/* out[i] = a*in[i], correct. */
static void scale(const float *in, float *out, float a, int n, const char *site) {
  if (tfuse_rt::check_on()) {
    auto a0 = in;
    auto a1 = out;
    tfuse_rt::Check c("scale", site, 0);
    c.track(a0, "in");
    c.track(a1, "out");
    for (int i = 0; i < n; i++) a1[i] = a * a0[i];
    c.original_done();
    for (int i = 0; i < n; i++) a1[i] = a * a0[i];
    c.coarsened_done();
  } else {
    for (int i = 0; i < n; i++) out[i] = a * in[i];
  }
}

/* y += a*x, x and y in one allocation: one snapshot; a missing restore
 * would add twice. */
static void axpy(float *x, float *y, float a, int n) {
  if (tfuse_rt::check_on()) {
    tfuse_rt::Check c("axpy", "sim.cpp:103", 0);
    c.track(x, "x");
    c.track(y, "y");
    for (int i = 0; i < n; i++) y[i] += a * x[i];
    c.original_done();
    for (int i = 0; i < n; i++) y[i] += a * x[i];
    c.coarsened_done();
  } else {
    for (int i = 0; i < n; i++) y[i] += a * x[i];
  }
}

/* A generic checked launch: orig and coarsened write through p. */
template <class T, class F, class G>
static void launch(const char *kernel, const char *site, T *p, const char *arg, F orig, G coarsened) {
  if (tfuse_rt::check_on()) {
    tfuse_rt::Check c(kernel, site, 0);
    c.track(p, arg);
    orig();
    c.original_done();
    if (c.again()) { /* the twice mode (docs/check.md), as tfuse -check emits it */
      orig();
      c.again_done();
    }
    coarsened();
    c.coarsened_done();
  } else {
    coarsened();
  }
}

struct Vec3 {
  float x, y, z;
};

static int all(void) {
  const int n = 100003, n3 = 1003;
  float *h = (float *)std::malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 1000) * 0.25f + 0.5f;
  float *in = dev<float>(n), *out = dev<float>(n), *out2 = dev<float>(n);
  float *xy = dev<float>(2 * (size_t)n);
  std::memcpy(in, h, n * sizeof(float));
  std::memcpy(xy, h, n * sizeof(float));
  std::memcpy(xy + n, h, n * sizeof(float));

  scale(in, out, 2.0f, n, "sim.cpp:101");
  scale(in, out, 2.0f, n, "sim.cpp:101");
  scale(in, out2, 3.0f, n, "sim.cpp:102");
  axpy(xy, xy + n, 0.5f, n);

  launch("planted", "sim.cpp:104", out, "out",
         [&] { for (int i = 0; i < n; i++) out[i] = in[i] * 2.0f + 1.0f; },
         [&] {
           for (int i = 0; i < n; i++) out[i] = in[i] * 2.0f + 1.0f;
           out[1000] = f_bits(bits_f(out[1000]) + 1);
           out[2000] += 1000.0f;
         });

  double *dout = dev<double>(n);
  launch("dplanted", "sim.cpp:105", dout, "out",
         [&] { for (int i = 0; i < n; i++) dout[i] = (i * 0.5 + 0.25) * 3.0; },
         [&] {
           for (int i = 0; i < n; i++) dout[i] = (i * 0.5 + 0.25) * 3.0;
           dout[77] = d_up(dout[77]);
         });

  int *iout = dev<int>(n);
  launch("iplanted", "sim.cpp:106", iout, "out",
         [&] { for (int i = 0; i < n; i++) iout[i] = 3 * i; },
         [&] { for (int i = 0; i < n; i++) iout[i] = 3 * i + (i == 5); });

  Vec3 *vout = dev<Vec3>(n3);
  launch("many", "sim.cpp:107", vout, "out",
         [&] { for (int i = 0; i < n3; i++) vout[i] = Vec3{(float)i, 1.0f, 2.0f}; },
         [&] { for (int i = 0; i < n3; i++) vout[i] = Vec3{(float)i, 1.0f, i % 100 == 0 ? 3.0f : 2.0f}; });

  /* A pageable host pointer next to a device one: unchecked, both run. */
  float *scratch = (float *)std::malloc(64 * sizeof(float));
  if (tfuse_rt::check_on()) {
    tfuse_rt::Check c("hostarg", "sim.cpp:108", 0);
    c.track(out, "out");
    c.track(scratch, "scratch");
    for (int i = 0; i < n; i++) out[i] = 0.5f * i;
    c.original_done();
    for (int i = 0; i < n; i++) out[i] = 0.5f * i;
    c.coarsened_done();
  } else {
    for (int i = 0; i < n; i++) out[i] = 0.5f * i;
  }

  /* Element numbers count from the argument, not the allocation. */
  float *base = dev<float>(16);
  float *mid = base + 2;
  launch("offset", "sim.cpp:109", mid, "p",
         [&] { for (int i = 0; i < 8; i++) mid[i] = 1.0f; },
         [&] { for (int i = 0; i < 8; i++) mid[i] = i == 3 ? -1.0f : 1.0f; });

  /* Bytes after the last whole element compare bytewise. */
  float *tail = (float *)fake_device_alloc(4 * 10 + 3);
  launch("tail", "sim.cpp:110", tail, "t",
         [&] { std::memset(tail, 0, 43); },
         [&] { std::memset(tail, 0, 43); ((unsigned char *)tail)[41] = 7; });

  /* ULP special cases: +0/-0, two NaNs, across zero (2 ulp), a 2-ulp step. */
  float *sg = dev<float>(4);
  launch("signs", "sim.cpp:111", sg, "s",
         [&] { sg[0] = 0.0f; sg[1] = f_bits(0x7fc00000); sg[2] = f_bits(0x80000001); sg[3] = 1.0f; },
         [&] { sg[0] = -0.0f; sg[1] = f_bits(0x7fc00001); sg[2] = f_bits(0x00000001); sg[3] = f_bits(0x3f800002); });

  /* void * is bytes of size 1; a short as a 2-byte integer. */
  void *raw = fake_device_alloc(4);
  launch("raw", "sim.cpp:112", raw, "r",
         [&] { std::memset(raw, 0x10, 4); },
         [&] { std::memset(raw, 0x10, 4); ((unsigned char *)raw)[2] = 0xff; });
  short *sh = dev<short>(2);
  launch("short", "sim.cpp:113", sh, "v",
         [&] { sh[0] = 1; sh[1] = -2; },
         [&] { sh[0] = 1; sh[1] = -3; });

  /* float2 is two floats: a 1-ulp step in a component is rounding with a 1-ulp tolerance. */
  float2 *v2 = dev<float2>(4);
  launch("vec2", "sim.cpp:114", v2, "v2",
         [&] { for (int i = 0; i < 4; i++) v2[i] = make_float2(1.0f, 2.0f); },
         [&] { for (int i = 0; i < 4; i++) v2[i] = make_float2(1.0f, i == 3 ? f_bits(0x40000001) : 2.0f); });

  /* A kernel that frees device-heap memory: tfuse -check runs it once, unchecked. */
  if (tfuse_rt::check_on())
    tfuse_check_ran_once("heap", "sim.cpp:115");

  /* The results of the correct launches: the same with and without checking. */
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (out2[i] != 3.0f * h[i] || xy[n + i] != h[i] + 0.5f * h[i] || out[i] != 0.5f * i)
      bad++;
  std::printf("sim: results %s\n", bad ? "WRONG" : "OK");
  return bad != 0;
}

/* ---- sim reach --------------------------------------------------------------- */

struct Params {
  float *out; /* byte 0 */
  int n;      /* byte 8 */
  float *acc; /* byte 16 */
};

static float g_sum[8];   /* stands for a __device__ float g_sum[8] */
static int g_missing[2]; /* a variable cudaGetSymbolAddress does not know */

/* A checked launch written as `tfuse -check` writes it, with `track` the
 * calls between the Check and the original. */
template <class T, class F, class G>
static void launch_with(const char *kernel, const char *site, T track, F orig, G coarsened) {
  if (tfuse_rt::check_on()) {
    tfuse_rt::Check c(kernel, site, 0);
    track(c);
    orig();
    c.original_done();
    coarsened();
    c.coarsened_done();
  } else {
    coarsened();
  }
}

static int reach(void) {
  const int n = 64;
  Params p;
  p.out = dev<float>(n);
  p.n = n;
  p.acc = dev<float>(n);
  for (int i = 0; i < n; i++) p.out[i] = 0, p.acc[i] = 1.0f;

  /* A struct of pointers by value, accumulating: restored, so acc is 1 + i once. */
  launch_with("structacc", "sim.cpp:201", [&](tfuse_rt::Check &c) { c.track_value(p, "p"); },
              [&] { for (int i = 0; i < p.n; i++) p.acc[i] += i; },
              [&] { for (int i = 0; i < p.n; i++) p.acc[i] += i; });
  /* ... with a planted difference at out[7] (byte 28 of the allocation). */
  launch_with("structout", "sim.cpp:202", [&](tfuse_rt::Check &c) { c.track_value(p, "p"); },
              [&] { for (int i = 0; i < p.n; i++) p.out[i] = 2.0f * i; },
              [&] { for (int i = 0; i < p.n; i++) p.out[i] = 2.0f * i + (i == 7); });

  /* A table of pointers in "device" memory: t[1][2] differs. */
  float **t = dev<float *>(3);
  for (int j = 0; j < 3; j++) {
    t[j] = dev<float>(4);
    for (int i = 0; i < 4; i++) t[j][i] = 0;
  }
  launch_with("table", "sim.cpp:203", [&](tfuse_rt::Check &c) { c.track_table(t, "t"); },
              [&] { for (int j = 0; j < 3; j++) for (int i = 0; i < 4; i++) t[j][i] += 1.0f; },
              [&] { for (int j = 0; j < 3; j++) for (int i = 0; i < 4; i++) t[j][i] += 1.0f + (j == 1 && i == 2); });

  /* A __device__ variable: float elements, g_sum[3] differs. */
  launch_with("devvar", "sim.cpp:204", [&](tfuse_rt::Check &c) { c.track_symbol(g_sum, "g_sum"); },
              [&] { for (int i = 0; i < 8; i++) g_sum[i] += 0.5f; },
              [&] { for (int i = 0; i < 8; i++) g_sum[i] += i == 3 ? 0.25f : 0.5f; });

  /* A blind spot, the compared part the same: not checked; and one where
   * the compared part differs: a difference. */
  float *o = dev<float>(4);
  enum { untraced = 1 }; /* check.h's untraced category, which both launches name (the summary says it) */
  auto track_o_blind = [&](tfuse_rt::Check &c) {
    c.track(o, "o");
    c.blind(untraced, "a write through 'q', a pointer loaded from memory");
  };
  launch_with("blindsame", "sim.cpp:205", track_o_blind, [&] { o[0] = 1; }, [&] { o[0] = 1; });
  launch_with("blinddiff", "sim.cpp:206", track_o_blind, [&] { o[0] = 1; }, [&] { o[0] = 2; });

  /* A table of 70 pointers to 70 allocations: 64 followed, then a blind spot. */
  int **many = dev<int *>(70);
  for (int j = 0; j < 70; j++) many[j] = dev<int>(1);
  launch_with("bigtable", "sim.cpp:207", [&](tfuse_rt::Check &c) { c.track_table(many, "m"); },
              [&] { for (int j = 0; j < 70; j++) *many[j] = j; }, [&] { for (int j = 0; j < 70; j++) *many[j] = j; });

  /* A variable without an address. */
  fake_symbol_missing(g_missing);
  launch_with("noaddr", "sim.cpp:208", [&](tfuse_rt::Check &c) { c.track_symbol(g_missing, "g_missing"); },
              [&] { g_missing[0]++; }, [&] { g_missing[0]++; });

  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += p.acc[i] != 1.0f + i;
  for (int j = 0; j < 3; j++)
    bad += t[0][j] != 1.0f || t[2][j] != 1.0f;
  bad += g_sum[0] != 0.5f;
  std::printf("sim: results %s\n", bad ? "WRONG" : "OK");
  return bad != 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, 0, _IONBF, 0);
  const char *what = argc > 1 ? argv[1] : "all";
  if (std::strcmp(what, "all") == 0)
    return all();
  if (std::strcmp(what, "launch-error") == 0) {
    int *p = dev<int>(4);
    launch("bad", "sim.cpp:120", p, "p", [&] { p[0] = 1; },
           [&] { fake_fail_next_launch(cudaErrorLaunchOutOfResources); });
    std::printf("sim: not reached\n");
    return 0;
  }
  if (std::strcmp(what, "pending") == 0) {
    int *p = dev<int>(4);
    fake_fail_next_launch(cudaErrorInvalidConfiguration); /* nobody reads it */
    launch("late", "sim.cpp:121", p, "p", [&] { p[0] = 1; }, [&] { p[0] = 1; });
    std::printf("sim: went on\n");
    return 0;
  }
  if (std::strcmp(what, "reach") == 0)
    return reach();
  if (std::strcmp(what, "twice") == 0) {
    /* An original whose result changes from run to run (a clock, the order
     * of atomics) and a coarsened kernel that writes yet another value; a
     * deterministic one whose coarsened kernel differs; one that agrees. */
    int *p = dev<int>(4);
    static int ticks;
    launch("noisy", "sim.cpp:130", p, "p", [&] { p[0] = ++ticks; }, [&] { p[0] = 1000; });
    launch("steady", "sim.cpp:131", p, "p", [&] { p[1] = 7; }, [&] { p[1] = 8; });
    launch("agrees", "sim.cpp:132", p, "p", [&] { p[2] = 5; }, [&] { p[2] = 5; });
    std::printf("sim: p[0] = %d, p[1] = %d, p[2] = %d\n", p[0], p[1], p[2]);
    return 0;
  }
  std::fprintf(stderr, "usage: sim [all|launch-error|pending|reach]\n");
  return 2;
}
