/* copies: the copies of a coarsened kernel's statements, for fuse.c and
 * the files that plan parts of its output (replicas.c, promote_emit.c).
 *
 * Contract: requires a Fuse set up by fuse_kernel (the kernel's factors
 * and dimensions) and uniform_analyze's masks; provides the groups of
 * copies along a mask of dimensions and their indices, the per-copy
 * suffixes and names of varying variables (Sym.copy_names, renamed past a
 * name the project already uses), and the edit sites a rendering collects.
 *
 *   K = 2 along x and 2 along y, mask {x}:  groups _x0, _x1;
 *   mask {x, y}: _x0y0, _x1y0, _x0y1, _x1y1 (x fastest)
 */
#include "fuse.h"

/* The dimensions along which a variable varies. */
unsigned sym_dims(Fuse *F, const Sym *s) { return F->multi ? s->vmask : s->varying ? F->all : 0; }

/* The number of groups of copies along mask, and the i-th (x fastest). */
int ngroups(Fuse *F, unsigned mask) {
  int n = 1;
  for (int d = 0; d < 3; d++)
    if (mask >> d & 1)
      n *= F->kd[d];
  return n;
}

Copy group_at(Fuse *F, unsigned mask, int i) {
  Copy c = {.mask = mask};
  for (int d = 0; d < 3; d++)
    if (mask >> d & 1) {
      c.r[d] = i % F->kd[d];
      i /= F->kd[d];
    }
  return c;
}

/* The index of c's group along mask (c covers mask). */
int group_index(Fuse *F, unsigned mask, Copy c) {
  int i = 0, stride = 1;
  for (int d = 0; d < 3; d++)
    if (mask >> d & 1) {
      i += c.r[d] * stride;
      stride *= F->kd[d];
    }
  return i;
}

/* `_3` (one dimension), `_x1y0` (several: the indices along mask), "" for mask 0. */
char *copy_suffix(Fuse *F, unsigned mask, Copy c) {
  if (!F->multi)
    return mask ? arena_printf("_%d", c.r[F->k->p.dim]) : "";
  Buf b = {0};
  for (int d = 0; d < 3; d++)
    if (mask >> d & 1)
      buf_printf(&b, "%s%s%d", b.len ? "" : "_", dim_name(d), c.r[d]);
  char *t = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  return t;
}

static const char *copy_name_multi(Fuse *F, Sym *s, Copy c) {
  unsigned m = sym_dims(F, s);
  int n = ngroups(F, m);
  if (!s->copy_names) {
    s->copy_names = arena_alloc(sizeof(char *) * (size_t)n);
    bool clash = false;
    for (int i = 0; i < n && !clash; i++)
      clash = unit_has_ident(F->u, arena_printf("%s%s", s->name, copy_suffix(F, m, group_at(F, m, i))));
    for (int i = 0; i < n; i++)
      s->copy_names[i] = arena_printf("%s%s%s", s->name, clash ? "__tf" : "", copy_suffix(F, m, group_at(F, m, i)));
  }
  return s->copy_names[group_index(F, m, c)];
}

const char *copy_name(Fuse *F, Sym *s, Copy c) {
  if (F->multi)
    return copy_name_multi(F, s, c);
  int r = c.r[F->k->p.dim];
  if (!s->copy_names) {
    s->copy_names = arena_alloc(sizeof(char *) * (size_t)F->K);
    bool clash = false;
    for (int i = 0; i < F->K && !clash; i++)
      clash = unit_has_ident(F->u, arena_printf("%s_%d", s->name, i));
    for (int i = 0; i < F->K; i++)
      s->copy_names[i] = clash ? arena_printf("%s__tf%d", s->name, i) : arena_printf("%s_%d", s->name, i);
  }
  return s->copy_names[r];
}

void add_site(Vec *sites, unsigned off, unsigned len, char *text) {
  Site *s = arena_alloc(sizeof *s);
  s->off = off;
  s->len = len;
  s->text = text;
  s->seq = sites->len;
  vec_push(sites, s);
}
