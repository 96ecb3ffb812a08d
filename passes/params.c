/* params: a kernel's coarsening parameters (Params: factor, dimension,
 * mode, mapping, layout, as one value or one per dimension), read from a
 * pragma's clauses or the command line (params_set_*), merged and checked
 * (params_resolve), and the queries every pass asks of them: the
 * coarsened dimensions, the copies along some of them, their text for
 * messages and emitted names.  Pure functions of the value: the driver
 * fills the command line's Params, annotate.c a pragma's. */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

const char *dim_name(int dim) { return dim == 0 ? "x" : dim == 1 ? "y" : "z"; }
const char *mode_name(Mode m) { return m == MODE_BLOCK ? "block" : "thread"; }
const char *mapping_name(Mapping m) { return m == MAP_STRIDE ? "stride" : "consecutive"; }

/* Parses a factor: a decimal integer from 1 to 1024. */
static bool parse_factor(const char *s, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 1 || v > 1024)
    return false;
  *out = (int)v;
  return true;
}

/* Splits a comma list of at most 3 items into out (arena strings, blanks
 * around items dropped); 0 on an empty item or more than 3. */
static int split_list(const char *v, char **out) {
  int n = 0;
  for (const char *p = v;;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    while (len && (*p == ' ' || *p == '\t'))
      p++, len--;
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
      len--;
    if (len == 0 || n == 3)
      return 0;
    out[n++] = arena_strndup(p, len);
    if (!c)
      return n;
    p = c + 1;
  }
}

/* `x`, or several distinct dimensions `x,y`. */
bool params_set_dim(Params *p, const char *v) {
  char *item[3];
  int n = split_list(v, item);
  int dims[3];
  for (int i = 0; i < n; i++) {
    if (strcmp(item[i], "x") && strcmp(item[i], "y") && strcmp(item[i], "z"))
      return false;
    dims[i] = item[i][0] - 'x';
    for (int j = 0; j < i; j++)
      if (dims[j] == dims[i])
        return false;
  }
  if (n == 0)
    return false;
  p->ndims = n;
  memcpy(p->dims, dims, sizeof dims);
  p->dim = dims[0];
  p->set |= OPT_SET_DIM;
  return true;
}

/* The index of v among the two spellings of a two-valued option, or -1;
 * a match records that the option was given (`set`, an OPT_SET_* bit). */
static int two_way(Params *p, unsigned set, const char *v, const char *first, const char *second) {
  int i = !strcmp(v, first) ? 0 : !strcmp(v, second) ? 1 : -1;
  if (i >= 0)
    p->set |= set;
  return i;
}

bool params_set_mode(Params *p, const char *v) {
  int i = two_way(p, OPT_SET_MODE, v, "block", "thread");
  if (i >= 0)
    p->mode = i ? MODE_THREAD : MODE_BLOCK;
  return i >= 0;
}

bool params_set_mapping(Params *p, const char *v) {
  int i = two_way(p, OPT_SET_MAPPING, v, "stride", "consecutive");
  if (i >= 0)
    p->mapping = i ? MAP_CONSECUTIVE : MAP_STRIDE;
  return i >= 0;
}

bool params_set_layout(Params *p, const char *v) {
  int i = two_way(p, OPT_SET_LAYOUT, v, "separate", "interleaved");
  if (i >= 0)
    p->layout = i ? LAYOUT_INTERLEAVED : LAYOUT_SEPARATE;
  return i >= 0;
}

/* `K`, `auto`, or one factor per dimension `4,2` (their product at most 1024). */
bool params_set_factor(Params *p, const char *v) {
  char *item[3];
  int n = split_list(v, item), f[3] = {1, 1, 1};
  if (!strcmp(v, "auto")) {
    p->factor = FACTOR_AUTO;
    n = 1;
    f[0] = FACTOR_AUTO;
  } else {
    long product = 1;
    for (int i = 0; i < n; i++) {
      if (!parse_factor(item[i], &f[i]))
        return false;
      product *= f[i];
    }
    if (n == 0 || product > 1024)
      return false;
    p->factor = (int)product;
  }
  p->nfactors = n;
  memcpy(p->factors, f, sizeof f);
  p->set |= OPT_SET_FACTOR;
  return true;
}

unsigned params_dims(const Params *p) {
  unsigned m = 0;
  for (int d = 0; d < 3; d++)
    if (p->kd[d] > 1)
      m |= 1u << d;
  return m;
}

bool params_multi(const Params *p) {
  unsigned m = params_dims(p);
  return m & (m - 1);
}

int params_copies(const Params *p, unsigned mask) {
  int n = 1;
  for (int d = 0; d < 3; d++)
    if (mask >> d & 1)
      n *= p->kd[d];
  return n;
}

int params_shared_replicas(const Params *p, const Sym *s) {
  return !s->varying ? 1 : params_multi(p) ? params_copies(p, s->vmask) : p->factor;
}

const char *params_resolve(Params *p) {
  int nf = p->nfactors ? p->nfactors : 1, nd = p->ndims ? p->ndims : 1;
  if (!p->nfactors)
    p->factors[0] = p->factor;
  if (!p->ndims)
    p->dims[0] = p->dim;
  if (nf != nd)
    return arena_printf("factor %s has %d value%s but dim %s names %d dimension%s: give one factor per "
                        "dimension, e.g. factor 4,4 with dim x,y", params_factor_text(p), nf, nf > 1 ? "s" : "",
                        params_dim_text(p), nd, nd > 1 ? "s" : "");
  p->kd[0] = p->kd[1] = p->kd[2] = 1;
  if (nf == 1) {
    if (p->factor != FACTOR_AUTO)
      p->kd[p->dim] = p->factor;
    return NULL;
  }
  for (int i = 0; i < nf; i++)
    p->kd[p->dims[i]] = p->factors[i];
  /* One dimension coarsened (the others by 1) is the one-dimensional request. */
  int first = -1, count = 0;
  for (int i = 0; i < nf; i++)
    if (p->factors[i] > 1 && count++ == 0)
      first = i;
  if (count <= 1) {
    p->dim = first >= 0 ? p->dims[first] : p->dims[0];
    p->nfactors = p->ndims = 1;
    p->factors[0] = p->factor;
    p->dims[0] = p->dim;
  } else {
    p->dim = p->dims[first];
  }
  return NULL;
}

char *params_factor_text(const Params *p) {
  if (p->nfactors <= 1)
    return p->factor == FACTOR_AUTO ? "auto" : arena_printf("%d", p->factor);
  Buf b = {0};
  for (int i = 0; i < p->nfactors; i++)
    buf_printf(&b, "%s%d", i ? "," : "", p->factors[i]);
  char *t = arena_strdup(b.data);
  buf_free(&b);
  return t;
}

char *params_dim_text(const Params *p) {
  if (p->ndims <= 1)
    return (char *)dim_name(p->dim);
  Buf b = {0};
  for (int i = 0; i < p->ndims; i++)
    buf_printf(&b, "%s%s", i ? "," : "", dim_name(p->dims[i]));
  char *t = arena_strdup(b.data);
  buf_free(&b);
  return t;
}
