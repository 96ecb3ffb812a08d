/* variants: `-factor auto`, one variant of a kernel per candidate.
 *
 * Contract: takes an annotated kernel whose factor is FACTOR_AUTO; for each
 * candidate of the tune space (mode, dimension, factor) runs the ordinary
 * passes (uniform, legality, promote, fuse: coarsen.c's coarsen_kernel) on a
 * copy of the Kernel with that candidate's Params, muting their errors: a
 * candidate they refuse is not a candidate (-report says why).  Each
 * accepted candidate's edits are rendered over the kernel's own text
 * (edit_render_range) with the kernel renamed, and the kernel's definition
 * is replaced by all of them, the original first as the K = 1 variant:
 *
 *   k -> k__tf_k1 (the original), k__tf_bx2, k__tf_bx4, ... (block mode
 *        along x), k__tf_ty2 (thread mode along y), k__tf_tx2c (thread mode,
 *        consecutive mapping)
 *
 * A block-mode candidate that divides an extern __shared__ array among its
 * logical blocks (Variant.dyn_shared) takes each one's share after the grid
 * extents; its launch asks for K shares of the launch's dynamic size
 * (launch_rewrite_auto), and the runtime counts it infeasible where they
 * pass what the device allows (tune.cpp).
 *
 * A candidate the driver's first emission found over the static
 * shared-memory limit (Options.auto_drops, from verify.c: the sizes of
 * template kernels' arrays are known only once instantiated) is left out.
 *
 * Prototypes of the kernel are replaced by the variants' prototypes.
 * Records on the Kernel the variants (Kernel.variants), a hash of their
 * text (the tuning key's source hash) and whether the runtime may tune it
 * (Kernel.untunable: why not).  launch_rewrite_auto (launch.c) then turns
 * each launch into a dispatch through runtime/include/tfuse/tune.h.
 *
 * The tune space (options -candidates and -tune-space, docs/auto.md):
 *   -candidates 2,4,8                  factors, in the kernel's own mode and
 *                                      dimension
 *   -tune-space "block.x:2,4 thread.y:2 block.xy.interleaved:8x8"
 *                                      items MODE.DIM[DIM][.layout|.consecutive]:K,... (AxB for two)
 *   neither: default_space, derived from the dimensions the kernel reads.
 */
#include "passes.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A candidate along one dimension d by k. */
static Params *one_dim(Params base, int d, int k) {
  Params *p = arena_alloc(sizeof *p);
  *p = base;
  p->dim = d;
  p->factor = k;
  return p;
}

/* Parses one factor list "2,4,8" from s; returns the end, or NULL. */
static const char *parse_factors(const char *s, Params base, Vec *out) {
  bool any = false;
  for (;;) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 1 || v > 1024)
      return NULL;
    if (out && v > 1)
      vec_push(out, one_dim(base, base.dim, (int)v));
    any = true;
    s = end;
    if (*s != ',')
      break;
    s++;
  }
  return any ? s : NULL;
}

/* A candidate along two dimensions: base.dim by k0 and d1 by k1, K = k0 * k1. */
static Params *two_dims(Params base, int k0, int d1, int k1) {
  Params *p = arena_alloc(sizeof *p);
  *p = base;
  p->nfactors = p->ndims = 2;
  p->factors[0] = k0;
  p->factors[1] = k1;
  p->dims[0] = base.dim;
  p->dims[1] = d1;
  p->factor = k0 * k1;
  params_resolve(p);
  return p;
}

/* Parses a list of factor pairs "2x2,4x4" from s (base.dim by the first,
 * d1 by the second); returns the end, or NULL. */
static const char *parse_pairs(const char *s, Params base, int d1, Vec *out) {
  for (;;) {
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || a < 1 || a > 1024 || *end != 'x')
      return NULL;
    s = end + 1;
    long b = strtol(s, &end, 10);
    if (end == s || b < 1 || b > 1024 || a * b > 1024)
      return NULL;
    if (out && a * b > 1)
      vec_push(out, a > 1 && b > 1 ? two_dims(base, (int)a, d1, (int)b)
                                   : one_dim(base, a > 1 ? base.dim : d1, (int)(a * b)));
    s = end;
    if (*s != ',')
      return s;
    s++;
  }
}

bool tune_space_parse(const char *spec, bool modes, Vec *out) {
  const char *s = spec;
  if (!modes) {
    const char *e = parse_factors(s, (Params){.set = OPT_SET_FACTOR}, out);
    return e && *e == 0;
  }
  bool any = false;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == ';')
      s++;
    if (!*s)
      return any;
    Params p = {.set = OPT_SET_FACTOR | OPT_SET_MODE | OPT_SET_DIM | OPT_SET_MAPPING};
    if (!strncmp(s, "block.", 6)) {
      p.mode = MODE_BLOCK;
      s += 6;
    } else if (!strncmp(s, "thread.", 7)) {
      p.mode = MODE_THREAD;
      s += 7;
    } else {
      return false;
    }
    if (*s < 'x' || *s > 'z')
      return false;
    p.dim = *s++ - 'x';
    int dim2 = -1; /* block.xy: two dimensions, factors AxB */
    if (p.mode == MODE_BLOCK && *s >= 'x' && *s <= 'z' && *s - 'x' != p.dim)
      dim2 = *s++ - 'x';
    if (p.mode == MODE_THREAD && !strncmp(s, ".consecutive", 12)) {
      p.mapping = MAP_CONSECUTIVE;
      s += 12;
    } else if (p.mode == MODE_BLOCK && !strncmp(s, ".interleaved", 12)) {
      p.layout = LAYOUT_INTERLEAVED;
      p.set |= OPT_SET_LAYOUT;
      s += 12;
    } else if (p.mode == MODE_BLOCK && !strncmp(s, ".separate", 9)) {
      p.set |= OPT_SET_LAYOUT;
      s += 9;
    }
    if (*s++ != ':')
      return false;
    s = dim2 >= 0 ? parse_pairs(s, p, dim2, out) : parse_factors(s, p, out);
    if (!s || (*s && *s != ' ' && *s != '\t' && *s != ';'))
      return false;
    any = true;
  }
}

/* The variant's name suffix and its name in tables ("block.x:4"). */
static char *variant_suffix(const Params *p) {
  if (p->factor == 1)
    return "k1";
  if (params_multi(p))
    return arena_printf("b%s%s%dx%d%s", dim_name(p->dims[0]), dim_name(p->dims[1]), p->factors[0], p->factors[1],
                        p->layout == LAYOUT_INTERLEAVED ? "i" : "");
  return arena_printf("%c%s%d%s%s", p->mode == MODE_BLOCK ? 'b' : 't', dim_name(p->dim), p->factor,
                      p->mode == MODE_THREAD && p->mapping == MAP_CONSECUTIVE ? "c" : "",
                      p->mode == MODE_BLOCK && p->layout == LAYOUT_INTERLEAVED ? "i" : "");
}

char *variant_label(const Params *p) {
  if (p->factor == 1)
    return "original";
  if (params_multi(p))
    return arena_printf("%s.%s%s%s:%dx%d", mode_name(p->mode), dim_name(p->dims[0]), dim_name(p->dims[1]),
                        p->layout == LAYOUT_INTERLEAVED ? ".interleaved" : "", p->factors[0], p->factors[1]);
  return arena_printf("%s.%s%s%s:%d", mode_name(p->mode), dim_name(p->dim),
                      p->mode == MODE_THREAD && p->mapping == MAP_CONSECUTIVE ? ".consecutive" : "",
                      p->mode == MODE_BLOCK && p->layout == LAYOUT_INTERLEAVED ? ".interleaved" : "", p->factor);
}

static void clear_promo(Node *n) {
  n->promo = NULL;
  for (int i = 0; i < n->nkid; i++)
    clear_promo(n->kid[i]);
}

/* The kernel's definition and prototypes renamed to `name`, with the edits
 * of el (the variant's) applied; the prototypes go to protos[i]. */
static char *render(Unit *u, Kernel *k, EditList *el, const char *name, Vec *protos) {
  const Source *src = u->src;
  size_t n = strlen(k->sym->name);
  edit_replace(el, k->fn->loc, (unsigned)n, name);
  for (int i = 0; i < u->fn_decls.len; i++) {
    Node *d = u->fn_decls.items[i];
    if (d->sym == k->sym && d->end > d->loc)
      edit_replace(el, d->loc, (unsigned)n, name);
  }
  char *text = edit_render_range(el, src, k->fn->begin, k->fn->end);
  for (int i = 0; i < u->fn_decls.len; i++) {
    Node *d = u->fn_decls.items[i];
    if (d->sym == k->sym && d->end > d->loc)
      vec_push(protos, edit_render_range(el, src, d->begin, d->end));
  }
  return text;
}

/* Whether evaluating the body (or a function it calls) prints or traps:
 * run once per candidate while tuning, that would show. */
static const char *prints(Node *n, int depth) {
  if (n->kind == N_CALL && n->sym && n->sym->name) {
    const char *f = n->sym->name;
    if (!strcmp(f, "printf") || !strcmp(f, "vprintf") || !strcmp(f, "__assertfail") || !strcmp(f, "__trap") ||
        !strcmp(f, "__brkpt"))
      return f;
    if (n->sym->body && depth < 16) {
      const char *w = prints(n->sym->body, depth + 1);
      if (w)
        return w;
    }
  }
  for (int i = 0; i < n->nkid; i++) {
    const char *w = prints(n->kid[i], depth);
    if (w)
      return w;
  }
  return NULL;
}

/* Whether every use of parameter s in n is an arithmetic or enumeration
 * value (passed by value: nothing to snapshot). */
static bool used_as_arith(Node *n, Sym *s) {
  if (n->kind == N_DECL_REF && n->sym == s && !n->type_arith && !n->type_integral)
    return false;
  for (int i = 0; i < n->nkid; i++)
    if (!used_as_arith(n->kid[i], s))
      return false;
  return true;
}

/* Why the runtime may not run this kernel several times on a snapshot of
 * its pointer arguments, or NULL.  Requires effects_prepare on the kernel. */
static char *untunable_reason(Unit *u, Kernel *k) {
  Node *body = k->fn->sym->body;
  const char *p = prints(body, 0);
  if (p)
    return arena_printf("it calls '%s', whose output each candidate would repeat", p);
  Effects e = {0};
  effects_of(body, &e);
  char *why = NULL;
  for (int i = 0; i < e.writes.len && !why; i++) {
    Sym *s = e.writes.items[i];
    if (s->kind == SYM_GLOBAL)
      why = arena_printf("it writes the global variable '%s', which the tuner cannot snapshot", s->name);
  }
  if (!why && (e.unknown || e.allocates))
    why = arena_printf("it %s, which the tuner cannot snapshot", e.allocates ? "allocates memory" :
                       "writes through a pointer tfuse cannot trace to an argument");
  effects_free(&e);
  for (int i = 0; i < k->fn->nkid && !why; i++) {
    Node *par = k->fn->kid[i];
    Sym *s = par->sym;
    if (par->kind != N_PARAM || !s || s->is_pointer || s->int_bytes > 0)
      continue;
    if (s->is_reference || !used_as_arith(body, s))
      why = arena_printf("its parameter '%s' is neither a pointer nor a number: memory reached through it "
                         "cannot be snapshot", s->name);
  }
  (void)u;
  return why;
}

static unsigned long long fnv1a(unsigned long long h, const char *s) {
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h;
}

const char *kernel_identity(const Kernel *k) { return k->sym->usr && k->sym->usr[0] ? k->sym->usr : k->sym->name; }

/* The driver's earlier emission found this candidate over the static
 * shared-memory limit (verify.c): the AutoDrop, or NULL.  Only block mode
 * replicates shared arrays, by the factor. */
static const AutoDrop *dropped(const Kernel *k, const Params *p, const Options *opt) {
  if (!opt->auto_drops || p->mode != MODE_BLOCK)
    return NULL;
  const char *f = params_factor_text(p);
  for (int i = 0; i < opt->auto_drops->len; i++) {
    const AutoDrop *d = opt->auto_drops->items[i];
    if (!strcmp(d->kernel, kernel_identity(k)) && !strcmp(d->factor, f))
      return d;
  }
  return NULL;
}

/* Whether n (or a function it calls) names a __shared__ array. */
static bool names_shared_array(const Node *n) {
  return (n->kind == N_DECL_REF || n->kind == N_VAR) && n->sym && n->sym->kind == SYM_SHARED && n->sym->is_array;
}

/* The most candidates the default space holds (the tuner runs each once
 * untimed and up to TFUSE_TUNE_RUNS times timed at a key's first launch). */
enum { SPACE_MAX = 24 };
/* The static estimate of a candidate's size: its copies times the nodes of
 * the kernel's body.  Past this, the copies' live values would spill
 * registers long before they paid, and nvcc's time grows with the text
 * (cuda-samples' simple_wmma_gemm, 319 nodes, merged 8x8 did not compile
 * in ten minutes; matmul, 217 nodes, keeps its 8x8). */
enum { SPACE_NODES = 16384 };

static int node_count(const Node *n) {
  int c = 1;
  for (int i = 0; i < n->nkid; i++)
    c += node_count(n->kid[i]);
  return c;
}

/* The default tune space, derived from the kernel, in this order up to
 * SPACE_MAX: its own mode along its own dimension, factors 2, 4, 8, 16;
 * the other mode along it, 2 and 4; along each other dimension whose block or thread index the kernel reads
 * (in its body or the functions it calls), 2, 4, 8; in block mode, the
 * two-dimensional merges of its own dimension with each of those, 2x2, 4x2,
 * 2x4, 4x4, 8x8 (within 64 blocks), and where the kernel names __shared__
 * arrays (replicated per logical block) the same with interleaved replicas,
 * 4x4 and 8x8 (a row's copies side by side: one vector load serves them).
 * Candidates the passes refuse drop out as any others.  A kernel whose
 * reads tfuse cannot tell gets its own dimension alone. */
/* Adds candidate p to the default space unless it is full (SPACE_MAX) or p
 * passes the size estimate (said with -report). */
static void push_sized(Vec *space, Params *p, int nodes, Kernel *k, const Options *opt) {
  if (space->len >= SPACE_MAX)
    return;
  if ((long)p->factor * nodes <= SPACE_NODES) {
    vec_push(space, p);
    return;
  }
  if (opt->report)
    remark_at(k->fn->loc, "-factor auto: candidate %s of '%s' left out of the default space: %d copies of a body of "
                          "%d nodes pass the size estimate (%d); name it with -tune-space to try it", variant_label(p),
              k->sym->name, p->factor, nodes, SPACE_NODES);
}

static void default_space(Unit *u, Kernel *k, const Options *opt, Vec *space) {
  static const int own[] = {2, 4, 8, 16}, other[] = {2, 4, 8};
  static const int pairs[][2] = {{2, 2}, {4, 2}, {2, 4}, {4, 4}, {8, 8}}, rows[][2] = {{4, 4}, {8, 8}};
  Params base = k->p;
  base.nfactors = base.ndims = 0;
  int nodes = node_count(k->fn->sym->body);
  for (size_t i = 0; i < sizeof own / sizeof *own; i++)
    push_sized(space, one_dim(base, base.dim, own[i]), nodes, k, opt);
  /* the other mode along the same dimension, where the passes accept it */
  Params alt = base;
  alt.mode = base.mode == MODE_BLOCK ? MODE_THREAD : MODE_BLOCK;
  alt.mapping = MAP_STRIDE;
  for (size_t i = 0; i < 2; i++)
    push_sized(space, one_dim(alt, base.dim, own[i]), nodes, k, opt);
  effects_prepare(u, k);
  Reads r = {0};
  reads_of(k->fn->sym->body, &r);
  bool everything = r.everything;
  unsigned bi = r.bi;
  reads_free(&r);
  if (everything)
    return;
  bool shared = node_holds(k->fn->sym->body, names_shared_array);
  for (int d = 0; d < 3; d++) {
    if (d == base.dim || !(bi & (RD_BI(BI_THREADIDX, d) | RD_BI(BI_BLOCKIDX, d))))
      continue;
    for (size_t i = 0; i < sizeof other / sizeof *other; i++)
      push_sized(space, one_dim(base, d, other[i]), nodes, k, opt);
    if (base.mode != MODE_BLOCK)
      continue;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
      push_sized(space, two_dims(base, pairs[i][0], d, pairs[i][1]), nodes, k, opt); /* -layout's */
    Params rowed = base;
    rowed.layout = LAYOUT_INTERLEAVED;
    rowed.set |= OPT_SET_LAYOUT;
    for (size_t i = 0; shared && i < sizeof rows / sizeof *rows; i++)
      push_sized(space, two_dims(rowed, rows[i][0], d, rows[i][1]), nodes, k, opt);
  }
}

bool variants_emit(Unit *u, Kernel *k, const Options *opt, EditList *el) {
  const Source *src = u->src;
  if (k->sym->spec_of) {
    error_at(k->fn->loc, "-factor auto cannot yet tune the explicit specialization '%s'", k->sym->name);
    return false;
  }
  for (int i = 0; i < u->functions.len; i++) {
    Node *f = u->functions.items[i];
    if (f->sym->spec_of == k->sym) {
      error_at(f->loc, "-factor auto cannot yet tune template kernel '%s', which has explicit specializations",
               k->sym->name);
      return false;
    }
  }
  /* The tune space: -tune-space, else -candidates (or the default) in
   * the kernel's own mode and dimension. */
  Vec space = {0};
  char *first_out = NULL; /* the first candidate left out, and why */
  unsigned first_off = 0;
  if (opt->tune_space)
    tune_space_parse(opt->tune_space, true, &space);
  else if (!opt->candidates)
    default_space(u, k, opt, &space);
  else {
    Vec ks = {0};
    tune_space_parse(opt->candidates, false, &ks);
    for (int i = 0; i < ks.len; i++) {
      Params *p = ks.items[i];
      p->mode = k->p.mode;
      p->dim = k->p.dim;
      p->mapping = k->p.mapping;
      vec_push(&space, p);
    }
    vec_free(&ks);
  }

  Vec protos_all = {0}; /* per variant: Vec* of prototype texts */
  Buf defs = {0};
  unsigned long long h = 1469598103934665603ull;
  Variant *orig = arena_alloc(sizeof *orig);
  orig->p = k->p;
  orig->p.factor = 1;
  orig->name = arena_printf("%s__tf_%s", k->sym->name, variant_suffix(&orig->p));
  orig->label = variant_label(&orig->p);
  {
    EditList none = {0};
    Vec *protos = arena_alloc(sizeof *protos);
    char *text = render(u, k, &none, orig->name, protos);
    if (!text)
      return false;
    buf_printf(&defs, "/* tfuse -factor auto: variant 'original' of '%s' */\n%s", k->sym->name, text);
    h = fnv1a(h, text);
    vec_push(&protos_all, protos);
    vec_push(&k->variants, orig);
  }
  for (int i = 0; i < space.len; i++) {
    Params *p = space.items[i];
    Layout layout = p->set & OPT_SET_LAYOUT ? p->layout : k->p.layout; /* -layout: every candidate without its own */
    Params withl = *p;
    withl.layout = layout;
    const char *want = variant_label(&withl);
    bool dup = false;
    for (int j = 1; j < k->variants.len && !dup; j++)
      dup = !strcmp(((Variant *)k->variants.items[j])->label, want);
    if (dup)
      continue;
    if (dropped(k, p, opt))
      continue; /* the driver said so (-report) when it found it */
    Kernel v = *k;
    v.p = *p;
    v.p.layout = layout;
    v.p.set = k->p.set;
    v.annotated = false;
    v.has_vreturn = v.uses_grid_extent = v.dyn_shared = v.whole_warps = false;
    v.shared = (Vec){0};
    v.promoted = (Vec){0};
    v.variants = (Vec){0};
    v.constructs = (Vec){0};
    v.variant_tag = variant_suffix(&v.p);
    clear_promo(k->fn);
    EditList vel = {0};
    diag_begin_trial();
    bool ok = coarsen_kernel(u, &v, opt, &vel);
    k->shared_probe |= ok && v.shared_probe; /* verify.c checks the candidates' static shared sizes */
    char *msg;
    unsigned off;
    int nerr = diag_end_trial(&msg, &off);
    char *label = variant_label(&v.p);
    if (nerr || !ok) {
      if (opt->report)
        remark_at(off ? off : k->fn->loc, "-factor auto: candidate %s of '%s' left out: %s", label, k->sym->name,
                  msg ? msg : "it cannot be coarsened");
      if (!first_out) {
        first_out = arena_printf("%s: %s", label, msg ? msg : "it cannot be coarsened");
        first_off = off;
      }
      continue;
    }
    /* The census (-report-json): the rows any candidate reaches. */
    for (int c = 0; c < v.constructs.len; c++)
      if (!vec_has_item(&k->constructs, v.constructs.items[c]))
        vec_push(&k->constructs, v.constructs.items[c]);
    Variant *var = arena_alloc(sizeof *var);
    var->p = v.p;
    var->whole_warps = v.whole_warps;
    var->dyn_shared = v.dyn_shared;
    var->name = arena_printf("%s__tf_%s", k->sym->name, variant_suffix(&var->p));
    var->label = label;
    Vec *protos = arena_alloc(sizeof *protos);
    char *text = render(u, k, &vel, var->name, protos);
    if (!text)
      return false;
    buf_printf(&defs, "\n\n/* tfuse -factor auto: variant '%s' of '%s' */\n%s", label, k->sym->name, text);
    h = fnv1a(h, text);
    vec_push(&protos_all, protos);
    vec_push(&k->variants, var);
    if (opt->report)
      remark_at(k->fn->loc, "-factor auto: candidate %s of '%s' emitted as '%s'", label, k->sym->name, var->name);
  }
  vec_free(&space);
  /* Only the original: nothing to tune, and the kernel is not coarsened. */
  if (k->variants.len == 1) {
    error_at(first_off ? first_off : k->fn->loc, "no candidate of '%s' can be coarsened with -factor auto%s%s",
             k->sym->name, first_out ? " (the first, " : "", first_out ? arena_printf("%s)", first_out) : "");
    return false;
  }

  /* The tuner runs candidates on a snapshot; the analyses of the last
   * candidate (effects_prepare) serve to tell whether that is safe. */
  effects_prepare(u, k);
  k->untunable = untunable_reason(u, k);
  if (k->untunable && opt->report)
    remark_at(k->fn->loc, "-factor auto: '%s' will not be tuned at run time (%s); it runs its wisdom entry or the "
                          "original", k->sym->name, k->untunable);
  k->tune_hash = arena_printf("%016llx", h);

  edit_replace(el, k->fn->begin, k->fn->end - k->fn->begin, defs.data);
  buf_free(&defs);
  int pi = 0;
  for (int i = 0; i < u->fn_decls.len; i++) {
    Node *d = u->fn_decls.items[i];
    if (d->sym != k->sym || d->end <= d->loc)
      continue;
    Buf b = {0};
    for (int j = 0; j < protos_all.len; j++) {
      Vec *protos = protos_all.items[j];
      buf_printf(&b, "%s%s", j ? ";\n" : "", (char *)protos->items[pi]);
    }
    edit_replace(el, d->begin, d->end - d->begin, b.data);
    buf_free(&b);
    pi++;
  }
  if (k->annotated)
    edit_replace(el, k->pragma_off, k->pragma_len,
                 arena_printf("/* tfuse: factor auto, %d variants: the fastest correct one is chosen at run time */",
                              k->variants.len));
  (void)src;
  return true;
}
