/* What the check runtime (check.cpp) and the tuning runtime (tune.cpp)
 * share: flags from the environment, TFUSE_CHECK_ULP, the device
 * allocation behind a pointer, and the comparison of what two kernels
 * wrote into one allocation.  Internal to runtime/src: each of the two
 * includes it, so a program may link either or both. */
#ifndef TFUSE_SNAPSHOT_H
#define TFUSE_SNAPSHOT_H
#include "../include/tfuse/check.h" /* element kinds */

#include <cuda.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tfuse_snap {

/* Set, not empty, and not "0". */
static inline int env_flag(const char *name) {
  const char *v = std::getenv(name);
  return v && v[0] && std::strcmp(v, "0") != 0;
}

/* TFUSE_CHECK_ULP: *on and *ulp when set; a malformed value ends the
 * program with a message that starts with `who`. */
static inline void read_ulp(const char *who, bool *on, unsigned long long *ulp) {
  *on = false;
  *ulp = 0;
  const char *v = std::getenv("TFUSE_CHECK_ULP");
  if (!v || !v[0])
    return;
  char *end = 0;
  bool digits = true;
  for (const char *q = v; *q; q++)
    digits = digits && *q >= '0' && *q <= '9';
  unsigned long long n = digits ? std::strtoull(v, &end, 10) : 0;
  if (!digits || *end != '\0' || n == ULLONG_MAX) {
    std::fprintf(stderr, "%s: error: TFUSE_CHECK_ULP must be an integer >= 0, not '%s'\n", who, v);
    std::exit(1);
  }
  *on = true;
  *ulp = n;
}

/* The whole device allocation containing p, or an error (pageable host
 * memory, say), with its name in *err_name. */
static inline bool allocation_of(const void *p, unsigned char **base, size_t *size, const char **err_name) {
  CUdeviceptr b = 0;
  size_t n = 0;
  CUresult r = cuMemGetAddressRange(&b, &n, (CUdeviceptr)(uintptr_t)p);
  if (r != CUDA_SUCCESS || n == 0) {
    *err_name = "unknown";
    if (r != CUDA_SUCCESS)
      cuGetErrorName(r, err_name);
    return false;
  }
  *base = (unsigned char *)(uintptr_t)b;
  *size = n;
  return true;
}

static inline unsigned long long load_le(const unsigned char *p, size_t n) {
  unsigned long long v = 0;
  for (size_t i = n; i-- > 0;)
    v = (v << 8) | p[i];
  return v;
}

/* |a - b| in the monotonic integer order of the bit patterns. */
static inline unsigned long long ulp_distance(unsigned long long a, unsigned long long b, int bits) {
  unsigned long long sign = 1ull << (bits - 1);
  /* Negative values map below zero: key = -(magnitude); -0 and +0 meet at 0. */
  long long ka = (a & sign) ? -(long long)(a & (sign - 1)) : (long long)a;
  long long kb = (b & sign) ? -(long long)(b & (sign - 1)) : (long long)b;
  return ka >= kb ? (unsigned long long)ka - (unsigned long long)kb
                  : (unsigned long long)kb - (unsigned long long)ka;
}

/* One element of `kind` and `elem_size` bytes: bitwise equal, or with
 * ulp_on, floats and doubles at most `ulp` apart (any two NaNs equal). */
static inline bool same_element(int kind, size_t elem_size, bool ulp_on, unsigned long long ulp,
                                const unsigned char *x, const unsigned char *y) {
  if (std::memcmp(x, y, elem_size) == 0)
    return true;
  if (!ulp_on)
    return false;
  if (kind == TFUSE_CHECK_FLOAT && elem_size == sizeof(float)) {
    float fx, fy;
    std::memcpy(&fx, x, sizeof fx);
    std::memcpy(&fy, y, sizeof fy);
    if (std::isnan(fx) || std::isnan(fy))
      return std::isnan(fx) && std::isnan(fy);
    return ulp_distance(load_le(x, 4), load_le(y, 4), 32) <= ulp;
  }
  if (kind == TFUSE_CHECK_DOUBLE && elem_size == sizeof(double)) {
    double dx, dy;
    std::memcpy(&dx, x, sizeof dx);
    std::memcpy(&dy, y, sizeof dy);
    if (std::isnan(dx) || std::isnan(dy))
      return std::isnan(dx) && std::isnan(dy);
    return ulp_distance(load_le(x, 8), load_le(y, 8), 64) <= ulp;
  }
  return false;
}

/* The number of elements (and stray bytes) that differ between two copies
 * of an allocation of `size` bytes whose elements start at arg_offset
 * modulo elem_size; the first one's byte offset in *first. */
static inline unsigned long long count_differences(int kind, size_t elem_size, size_t arg_offset, size_t size,
                                                   bool ulp_on, unsigned long long ulp, const unsigned char *exp,
                                                   const unsigned char *got, size_t *first) {
  if (std::memcmp(exp, got, size) == 0)
    return 0;
  unsigned long long n = 0;
  size_t es = elem_size ? elem_size : 1, off = 0, lead = arg_offset % es;
  for (; off < lead && off < size; off++)
    if (exp[off] != got[off] && !n++)
      *first = off;
  for (; off + es <= size; off += es)
    if (!same_element(kind, es, ulp_on, ulp, exp + off, got + off) && !n++)
      *first = off;
  for (; off < size; off++)
    if (exp[off] != got[off] && !n++)
      *first = off;
  return n;
}

} // namespace tfuse_snap

#endif /* TFUSE_SNAPSHOT_H */
