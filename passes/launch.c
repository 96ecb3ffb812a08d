/* launch: rewrites the launch sites of coarsened kernels.
 *
 * Contract: requires fuse_kernel on every kernel in `kernels` (they must
 * agree about K); records one edit per `k<<<grid, block[, smem[, stream]]>>>(args)`
 * launch of those kernels in the file (DESIGN.md section 5).  The new
 * extents are computed from the user's own expressions by helpers of the
 * prelude, so grid and block may be ints, dim3 variables or dim3(...).
 *
 *   block mode:  k<<<g, b>>>(x);
 *            ->  { const dim3 __tf_grid = (g); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), b>>>(
 *                  ::tfuse_rt::grid_extent(__tf_grid, 0), x); }
 *   thread mode: k<<<g, b>>>(x);
 *            ->  k<<<g, ::tfuse_rt::coarsen_block(b, 1, 4u, "k", "file.cu:12")>>>(x);
 */
#include "tfuse.h"

#include <string.h>

typedef struct {
  unsigned b, e;
} Span;

/* Splits the text between `<<<` and `>>>` at top-level commas. */
static int split_config(const Source *src, unsigned b, unsigned e, Span *parts, int max) {
  const char *t = src->text;
  int n = 0, depth = 0;
  unsigned start = b;
  for (unsigned i = b; i < e; i++) {
    char c = t[i];
    if (c == '(' || c == '[' || c == '{')
      depth++;
    else if (c == ')' || c == ']' || c == '}')
      depth--;
    else if (c == ',' && depth == 0) {
      if (n < max)
        parts[n++] = (Span){start, i};
      start = i + 1;
    }
  }
  if (n < max)
    parts[n++] = (Span){start, e};
  return n;
}

static char *span_text(const Source *src, Span s) {
  while (s.b < s.e && (src->text[s.b] == ' ' || src->text[s.b] == '\n' || src->text[s.b] == '\t'))
    s.b++;
  while (s.e > s.b && (src->text[s.e - 1] == ' ' || src->text[s.e - 1] == '\n' || src->text[s.e - 1] == '\t'))
    s.e--;
  return arena_strndup(src->text + s.b, s.e - s.b);
}

static bool in_statement_position(const Node *call) {
  const Node *p = call->parent;
  while (p && p->kind == N_UNEXPOSED)
    p = p->parent;
  if (!p)
    return false;
  switch (p->kind) {
  case N_COMPOUND:
  case N_CASE:
  case N_LABEL:
  case N_ATTRIBUTED:
    return true;
  case N_IF:
  case N_FOR:
  case N_WHILE:
  case N_DO:
    return p->cond != call && p->init != call && p->inc != call;
  default:
    return false;
  }
}

static bool rewrite_one(Unit *u, Node *call, Kernel *k, EditList *el) {
  const Source *src = u->src;
  const char *t = src->text;
  if (call->in_macro || call->end <= call->begin) {
    error_at(call->begin, "launch of '%s' inside a macro expansion cannot be rewritten; expand it by hand",
             k->sym->name);
    return false;
  }
  Node *cfg = call->kid[1];
  /* Find <<< and >>> in the text of the call. */
  const char *open = strstr(t + call->begin, "<<<");
  if (!open || (unsigned)(open - t) >= call->end) {
    error_at(call->begin, "cannot find '<<<' in this launch of '%s'", k->sym->name);
    return false;
  }
  unsigned cb = (unsigned)(open - t) + 3;
  unsigned ce = cfg->end >= 3 ? cfg->end - 3 : cb;
  if (strncmp(t + ce, ">>>", 3) != 0) {
    const char *close = strstr(t + cb, ">>>");
    if (!close) {
      error_at(call->begin, "cannot find '>>>' in this launch of '%s'", k->sym->name);
      return false;
    }
    ce = (unsigned)(close - t);
  }
  Span parts[4];
  int np = split_config(src, cb, ce, parts, 4);
  if (np < 2) {
    error_at(call->begin, "launch of '%s' needs a grid and a block%s", k->sym->name, "");
    return false;
  }
  int d = k->p.dim;
  int line, col;
  source_linecol(src, call->begin, &line, &col);

  if (k->p.mode == MODE_THREAD) {
    const char *slash = strrchr(src->path, '/');
    char *site = arena_printf("%s:%d", slash ? slash + 1 : src->path, line);
    char *block = span_text(src, parts[1]);
    edit_replace(el, parts[1].b, parts[1].e - parts[1].b,
                 arena_printf(" ::tfuse_rt::coarsen_block(%s, %d, %du, \"%s\", \"%s\")", block, d, k->p.factor,
                              k->sym->name, site));
    return true;
  }

  /* Block mode: the grid is used twice (new grid, original extent), so it
   * is evaluated once into a local of a new block around the launch. */
  if (!in_statement_position(call)) {
    error_at(call->begin, "launch of '%s' is part of a larger expression; make it a statement of its own so "
                          "tfuse can rewrite it", k->sym->name);
    return false;
  }
  unsigned end = stmt_end(src, call);
  if (end == call->end) {
    error_at(call->begin, "cannot find the ';' ending this launch of '%s'", k->sym->name);
    return false;
  }
  Buf b = {0};
  buf_printf(&b, "{ const dim3 __tf_grid = (%s); ", span_text(src, parts[0]));
  buf_add(&b, t + call->begin, cb - call->begin);
  buf_printf(&b, "::tfuse_rt::coarsen_grid(__tf_grid, %d, %du),", d, k->p.factor);
  /* Keep block, smem and stream as written. */
  buf_add(&b, t + parts[1].b, ce - parts[1].b);
  /* Arguments: everything between `>>>(` and the closing `)`. */
  unsigned lp = ce + 3;
  while (lp < call->end && t[lp] != '(')
    lp++;
  unsigned rp = text_match(src, lp, call->end) - 1;
  buf_add(&b, t + ce, lp + 1 - ce);
  bool no_args = source_skip_space(src, lp + 1) >= rp;
  buf_printf(&b, "::tfuse_rt::grid_extent(__tf_grid, %d)%s", d, no_args ? "" : ", ");
  buf_add(&b, t + lp + 1, call->end - lp - 1);
  buf_puts(&b, "; }");
  edit_replace(el, call->begin, end - call->begin, b.data);
  buf_free(&b);
  return true;
}

/* Any use of a kernel's name other than as the callee of a launch (taking
 * its address for cudaLaunchKernel, say) would escape the rescaling. */
static bool check_other_uses(Unit *u, Node *n, Vec *kernels) {
  bool ok = true;
  if (n->kind == N_DECL_REF)
    for (int j = 0; j < kernels->len; j++) {
      Kernel *k = kernels->items[j];
      if (n->sym == k->sym && k->p.factor > 1) {
        error_at(n->begin, "'%s' is used here other than in a <<<...>>> launch; tfuse cannot rescale such a "
                           "launch, so it refuses to coarsen the kernel", k->sym->name);
        ok = false;
      }
    }
  /* The callee of a launch (kid 0) is the one use that is rewritten. */
  for (int i = n->is_launch ? 1 : 0; i < n->nkid; i++)
    ok &= check_other_uses(u, n->kid[i], kernels);
  return ok;
}

bool launch_rewrite(Unit *u, Vec *kernels, EditList *el) {
  bool ok = true;
  for (int i = 0; i < u->functions.len; i++)
    ok &= check_other_uses(u, u->functions.items[i], kernels);
  if (!ok)
    return false;
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    for (int j = 0; j < kernels->len; j++) {
      Kernel *k = kernels->items[j];
      if (call->sym == k->sym && k->p.factor > 1)
        ok &= rewrite_one(u, call, k, el);
    }
  }
  return ok;
}
