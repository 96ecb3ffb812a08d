/* fuse: rewrites a kernel's body so one thread runs K logical threads.
 *
 * Contract: requires uniform_analyze and a passing legality_check on the
 * kernel; records edits replacing the kernel's body, its signature (block
 * mode: one parameter, the original grid extent) and its prototypes.
 * This file writes the kernel (its signature, body and prototypes, the
 * entry point fuse_kernel); its statements are emit.c's, the text of each
 * copy render.c's, the copies and their names copies.c's, the layout of
 * replicated shared memory replicas.c's, the registers of promoted arrays
 * promote_emit.c's (shared types: passes/fuse.h).
 *
 * DESIGN.md section 3, walking the body in order (copies interleave
 * statement by statement, as in the seeds):
 *   - a uniform side-effect-free statement is emitted once;
 *   - a varying or effectful statement K times, copy r with each varying
 *     name renamed (`e` -> `e_r`) and the logical ids substituted;
 *   - a uniform loop/if is emitted once and its body processed recursively;
 *   - a varying `if` is predicated: each copy's condition goes into a bool,
 *     the branch runs once if any copy takes it, and inside it the copies'
 *     statements are guarded by their own bool only where needed;
 *   - a varying loop or switch is emitted K times whole, a `return` in it
 *     becoming `live = false; goto` past that copy;
 *   - a varying return clears the copy's live flag; later statements that
 *     touch memory are guarded by it; block mode, where a coalesced group
 *     follows such a return in the kernel's body, the rest of the body is
 *     written out whole per copy under the copy's flag (Kernel.copy_tail);
 *   - block mode: copy r of a block past the original grid is dead; its
 *     memory accesses are guarded by `__tf_ok_r` (copy 0 is always live);
 *     its warp-synchronous calls run unguarded into temporaries; the
 *     grid's queries (cooperative groups) are written out per copy;
 *   - a call leaving out default arguments that read a changed index
 *     spells them, rendered for the copy;
 *   - a lambda bound to a local is a varying declaration like any other,
 *     its body rendered for the copy; a `return` in it stays as written
 *     (it leaves the lambda), and its body counts for the guards only at
 *     the calls (effects.c);
 *   - thread mode: `__syncthreads_count/and/or(p)` becomes the copies'
 *     calls combined (block_reduce_site).
 *
 * A copy needs a guard when it stores or calls something with effects,
 * loads from an address that depends on the copy, loads at all where no
 * copy is known to be live, or writes a variable that outlives the
 * predicated region.  Pure register arithmetic of a dead copy is harmless
 * and left unguarded so the hot loops stay branch-free (DCS, MRI-Q).
 *
 *   before (block mode, K = 2):           after:
 *     int i = blockIdx.x * B + t;           int i_0 = (blockIdx.x * 2) * B + t;
 *     float y = s * j;                      int i_1 = (blockIdx.x * 2 + 1) * B + t;
 *     out[i] = y * in[i];                   float y = s * j;
 *                                           out[i_0] = y * in[i_0];
 *                                           if (__tf_ok_1) out[i_1] = y * in[i_1];
 */
#include "fuse.h"

#include <stdlib.h>
#include <string.h>

/* ---- the kernel ---- */

/* Whether the identifier w occurs in text as a whole word. */
static bool uses_word(const char *text, const char *w) {
  size_t n = strlen(w);
  for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
    bool before = p > text && (p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') || ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'));
    char a = p[n];
    bool after = a == '_' || (a >= '0' && a <= '9') || ((a | 32) >= 'a' && (a | 32) <= 'z');
    if (!before && !after)
      return true;
  }
  return false;
}

/* Several dimensions: the prologue's comment and the liveness flags of
 * each coarsened dimension (block mode): `__tf_ok_y2` says logical block
 * row blockIdx.y * KY + 2 exists. */
static void prologue_multi(Fuse *F, Buf *pro, const char *indent) {
  const Kernel *k = F->k;
  Buf ids = {0}, ranges = {0};
  for (int d = 0; d < 3; d++) {
    if (!(F->all >> d & 1))
      continue;
    const char *n = dim_name(d);
    if (k->p.mode == MODE_BLOCK)
      buf_printf(&ids, "%sblockIdx.%s * %d + r%s", ids.len ? ", " : "", n, F->kd[d], n);
    else if (k->p.mapping == MAP_STRIDE)
      buf_printf(&ids, "%sthreadIdx.%s + r%s * blockDim.%s", ids.len ? ", " : "", n, n, n);
    else
      buf_printf(&ids, "%sthreadIdx.%s * %d + r%s", ids.len ? ", " : "", n, F->kd[d], n);
    buf_printf(&ranges, "%sr%s = 0..%d", ranges.len ? ", " : "", n, F->kd[d] - 1);
  }
  buf_printf(pro, "\n%s/* tfuse: this thread runs logical %s (%s), %s; copy (r%s) of a variable is v_%s */",
             indent, k->p.mode == MODE_BLOCK ? "blocks" : "threads", ids.data, ranges.data,
             F->all == 3 ? "x, ry" : F->all == 5 ? "x, rz" : F->all == 6 ? "y, rz" : "x, ry, rz",
             F->all == 3 ? "x<rx>y<ry>" : F->all == 5 ? "x<rx>z<rz>" : F->all == 6 ? "y<ry>z<rz>" : "x<rx>y<ry>z<rz>");
  buf_free(&ids);
  buf_free(&ranges);
  for (int d = 0; d < 3 && k->p.mode == MODE_BLOCK; d++)
    for (int r = 1; (F->all >> d & 1) && r < F->kd[d]; r++) {
      char *ok = arena_printf("__tf_ok_%s%d", dim_name(d), r);
      if (uses_word(F->out.data, ok))
        buf_printf(pro, "\n%sconst bool %s = blockIdx.%s * %d + %d < __tf_grid_%s;", indent, ok, dim_name(d), F->kd[d],
                   r, dim_name(d));
    }
}

/* The original grid extent goes *first*: launches pass arguments by
 * position, so a last parameter would collide with default arguments. */
static void add_grid_param(Fuse *F, Node *fn, EditList *el) {
  unsigned close = fn_params_close(F->src, fn);
  unsigned open = fn->loc;
  while (F->src->text[open] != '(')
    open++;
  const char *param = grid_params_text(F->k, true);
  if (fn_params_empty(F->src, fn, close))
    edit_replace(el, open + 1, close - open - 1, param);
  else
    edit_insert(el, open + 1, arena_printf("%s, ", param));
}

/* Block mode: explicit instantiations of a kernel template
 * (`template __global__ void k<float>(float *, int);`, `extern template`)
 * name its new signature: the grid parameters first.  libclang does not
 * list them among the unit's declarations, so they are found in the text:
 * `template` not followed by `<`, then, before the `;`, the kernel's name
 * with template arguments and a parameter list. */
static void add_grid_param_instantiations(Fuse *F, EditList *el) {
  const char *t = F->src->text, *name = F->k->sym->name;
  size_t len = F->src->len, nl = strlen(name);
  if (strncmp(t + F->k->fn->begin, "template", 8) != 0)
    return; /* not a template */
  for (size_t i = 0; i + 8 < len; i++) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j - 1;
      continue;
    }
    if (strncmp(t + i, "template", 8) || (i > 0 && ident_char(t[i - 1])) || ident_char(t[i + 8]))
      continue;
    unsigned p = source_skip_space(F->src, (unsigned)i + 8);
    if (p >= len || t[p] == '<')
      continue; /* a template's own declaration */
    unsigned end = p;
    while (end < len && t[end] != ';' && t[end] != '{')
      end++;
    if (end >= len || t[end] != ';')
      continue;
    for (unsigned q = p; q + nl < end; q++) {
      if (strncmp(t + q, name, nl) || ident_char(t[q - 1]) || ident_char(t[q + nl]))
        continue;
      unsigned a = source_skip_space(F->src, q + (unsigned)nl);
      if (a >= end || t[a] != '<')
        continue;
      unsigned close = a;
      for (int depth = 0; close < end; close++) { /* past the template arguments' `>` */
        depth += t[close] == '<' || t[close] == '(' ? 1 : t[close] == '>' || t[close] == ')' ? -1 : 0;
        if (depth == 0)
          break;
      }
      unsigned open = source_skip_space(F->src, close + 1);
      if (close >= end || open >= end || t[open] != '(')
        continue;
      unsigned rp = text_match(F->src, open, end + 1);
      bool empty = source_skip_space(F->src, open + 1) + 1 >= rp;
      edit_insert(el, open + 1, arena_printf("%s%s", grid_params_text(F->k, false), empty ? "" : ", "));
      break;
    }
    i = end;
  }
}

static bool declares(const Node *n, const Sym *s) {
  if (n->kind == N_VAR && n->sym == s)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (declares(n->kid[i], s))
      return true;
  return false;
}

static void collect_outer_shared(Node *n, Node *body, Vec *out) {
  /* An extern __shared__ array declared in several kernels is one entity
   * to clang (its first declaration's offset): declared here, it is not
   * outer. */
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_SHARED && n->sym->varying &&
      !(body->begin <= n->sym->decl_off && n->sym->decl_off < body->end) &&
      !(n->sym->is_extern && declares(body, n->sym))) {
    for (int i = 0; i < out->len; i++)
      if (out->items[i] == n->sym)
        return;
    vec_push(out, n->sym);
  }
  for (int i = 0; i < n->nkid; i++)
    collect_outer_shared(n->kid[i], body, out);
}

/* Thread mode: a block has 1/K of the original threads, so the kernel's
 * `__launch_bounds__(N[, minBlocks])` becomes ceil(N/K).  Left at N, nvcc
 * would budget registers for N threads (64 per thread at 1024) and spill
 * the K copies' registers (Gauss-Jordan at K = 16: 3.4 KB of spills). */
static void rescale_launch_bounds(Fuse *F, Node *fn, EditList *el) {
  const char *t = F->src->text;
  const char *kw = "__launch_bounds__";
  size_t kwlen = strlen(kw);
  for (unsigned p = fn->begin; p + kwlen < fn->loc; p++) {
    if (strncmp(t + p, kw, kwlen) != 0)
      continue;
    unsigned open = source_skip_space(F->src, p + (unsigned)kwlen);
    if (t[open] != '(')
      return;
    unsigned close = text_match(F->src, open, fn->loc) - 1;
    unsigned a = source_skip_space(F->src, open + 1), e = a;
    int depth = 0;
    for (; e < close; e++) {
      if (t[e] == '(' || t[e] == '[' || t[e] == '{')
        depth++;
      else if (t[e] == ')' || t[e] == ']' || t[e] == '}')
        depth--;
      else if (t[e] == ',' && depth == 0)
        break;
    }
    while (e > a && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\n'))
      e--;
    char *arg = arena_strndup(t + a, e - a);
    char *end;
    long n = strtol(arg, &end, 10);
    char *text = (*end == 0 && n > 0) ? arena_printf("%ld", (n + F->K - 1) / F->K)
                                      : arena_printf("((%s) + %d - 1) / %d", arg, F->K, F->K);
    edit_replace(el, a, e - a, text);
    return;
  }
}

/* Block mode: the kernel's `__cluster_dims__(x[, y[, z]])` says how many
 * blocks a cluster holds, and the grid must be a multiple of it; the grid
 * of merged blocks is 1/K of the original's, so along a coarsened
 * dimension the extent c becomes c / K where K divides c (the clusters
 * hold the original's logical blocks), else 1 (::tfuse_rt::coarsen_cluster,
 * the same rule for cudaLaunchKernelEx's cluster attribute).  The kernel
 * reads nothing of its cluster (legality.c refuses it), so the cluster
 * only groups blocks for the scheduler. */
static void rescale_cluster_dims(Fuse *F, Node *fn, EditList *el) {
  const char *t = F->src->text;
  const char *kw = "__cluster_dims__";
  size_t kwlen = strlen(kw);
  for (unsigned p = fn->begin; p + kwlen < fn->loc; p++) {
    if (strncmp(t + p, kw, kwlen) != 0)
      continue;
    unsigned open = source_skip_space(F->src, p + (unsigned)kwlen);
    if (t[open] != '(')
      return;
    unsigned close = text_match(F->src, open, fn->loc) - 1;
    unsigned a = open + 1;
    for (int d = 0; d < 3 && a < close; d++) {
      unsigned e = a;
      int depth = 0;
      for (; e < close; e++) {
        if (t[e] == '(' || t[e] == '[' || t[e] == '{')
          depth++;
        else if (t[e] == ')' || t[e] == ']' || t[e] == '}')
          depth--;
        else if (t[e] == ',' && depth == 0)
          break;
      }
      unsigned b = source_skip_space(F->src, a), x = e;
      while (x > b && (t[x - 1] == ' ' || t[x - 1] == '\t' || t[x - 1] == '\n'))
        x--;
      if (F->kd[d] > 1 && x > b) {
        char *arg = arena_strndup(t + b, x - b);
        char *end;
        long c = strtol(arg, &end, 10);
        int K = F->kd[d];
        char *text = (*end == 0 && c > 0) ? arena_printf("%ld", c % K == 0 ? c / K : 1)
                                          : arena_printf("((%s) %% %d == 0 ? (%s) / %d : 1)", arg, K, arg, K);
        edit_replace(el, b, x - b, text);
      }
      a = e + 1;
    }
    return;
  }
}

bool fuse_kernel(Unit *u, Kernel *k, const Options *opt, EditList *el) {
  Fuse F = {.u = u, .k = k, .src = u->src, .K = k->p.factor, .multi = params_multi(&k->p)};
  F.all = F.multi ? params_dims(&k->p) : 1u << k->p.dim;
  for (int d = 0; d < 3; d++)
    F.kd[d] = F.multi ? k->p.kd[d] : d == k->p.dim ? F.K : 1;
  Node *body = k->fn->sym->body;
  Ctx ctx = {0};
  ctx.pred = arena_alloc(sizeof(char *) * (size_t)F.K);
  for (int r = 1; r < F.K && k->p.mode == MODE_BLOCK; r++) {
    if (!F.multi) {
      ctx.pred[r] = arena_printf("__tf_ok_%d", r);
      continue;
    }
    /* Several dimensions: copy (rx, ry) is live when both its indices are
     * (`__tf_ok_x1 && __tf_ok_y2`); an index 0 always is. */
    Copy c = group_at(&F, F.all, r);
    Buf b = {0};
    for (int d = 0; d < 3; d++)
      if (c.r[d])
        buf_printf(&b, "%s__tf_ok_%s%d", b.len ? " && " : "", dim_name(d), c.r[d]);
    ctx.pred[r] = arena_strdup(b.data);
    buf_free(&b);
  }
  ctx.any_true = true;
  plan_shared_probe(&F, body);
  plan_interleave(&F, body, opt->report);

  F.first = true;
  emit_stmt(&F, body, &ctx);
  vec_free(&F.reduced);
  if (F.failed) {
    buf_free(&F.out);
    return false;
  }

  /* The prologue declares only what the body uses. */
  Buf pro = {0};
  char *indent = "  ";
  for (int i = 0; i < body->nkid; i++) {
    indent = source_indent(F.src, body->kid[i]->begin);
    break;
  }
  const char *d = dim_name(k->p.dim);
  if (F.multi)
    prologue_multi(&F, &pro, indent);
  else if (k->p.mode == MODE_BLOCK)
    buf_printf(&pro, "\n%s/* tfuse: this thread runs logical blocks blockIdx.%s * %d + r, r = 0..%d */", indent, d,
               F.K, F.K - 1);
  else if (k->p.mapping == MAP_STRIDE)
    buf_printf(&pro, "\n%s/* tfuse: this thread runs logical threads threadIdx.%s + r * blockDim.%s, r = 0..%d */",
               indent, d, d, F.K - 1);
  else
    buf_printf(&pro, "\n%s/* tfuse: this thread runs logical threads threadIdx.%s * %d + r, r = 0..%d */", indent, d,
               F.K, F.K - 1);
  for (int r = 1; r < F.K && !F.multi; r++)
    if (strstr(F.out.data, arena_printf("__tf_ok_%d", r)))
      buf_printf(&pro, "\n%sconst bool __tf_ok_%d = blockIdx.%s * %d + %d < __tf_grid_%s;", indent, r, d, F.K, r, d);
  for (int r = 0; r < F.K; r++) {
    char *live = arena_printf("__tf_live%s", copy_suffix(&F, F.all, group_at(&F, F.all, r)));
    if (F.multi ? uses_word(F.out.data, live) : strstr(F.out.data, live) != NULL)
      buf_printf(&pro, "\n%sbool %s = true;", indent, live);
  }
  /* A probe whose declaration was emitted within a statement copied per
   * copy (a loop run by each copy) goes first; a type spelled with a name
   * declared in the body then fails the parse of the output (verify.c). */
  if (F.probe && !F.probe_placed)
    buf_printf(&pro, "\n%s%s", indent, F.probe);
  /* Shared arrays declared outside the kernel but replicated here get
   * their copies at entry. */
  Vec outer = {0};
  collect_outer_shared(k->fn->sym->body, body, &outer);
  for (int i = 0; i < outer.len; i++) {
    Sym *sh = outer.items[i];
    if (is_dyn_replica(sh)) {
      buf_printf(&pro, "\n%s%s", indent, dyn_shared_copies(&F, sh, indent));
      k->dyn_shared = true;
      continue;
    }
    for (int r = 0; r < ngroups(&F, sym_dims(&F, sh)); r++)
      buf_printf(&pro, "\n%s__shared__ decltype(%s) %s;", indent, sh->name,
                 copy_name(&F, sh, group_at(&F, sym_dims(&F, sh), r)));
  }
  vec_free(&outer);
  /* Registers of promoted arrays declared outside the kernel. */
  for (int i = 0; i < k->promoted.len; i++) {
    Promo *pr = k->promoted.items[i];
    if (!(body->begin <= pr->arr->decl_off && pr->arr->decl_off < body->end))
      buf_printf(&pro, "\n%s%s", indent, promo_decl(&F, pr->arr));
  }
  /* Parameters written per copy start as copies of the argument. */
  Node *fn = k->fn;
  for (int i = 0; i < fn->nkid; i++) {
    Node *p = fn->kid[i];
    if (p->kind == N_PARAM && p->sym && p->sym->varying)
      for (int r = 0; r < ngroups(&F, sym_dims(&F, p->sym)); r++)
        buf_printf(&pro, "\n%sdecltype(%s) %s = %s;", indent, p->sym->name,
                   copy_name(&F, p->sym, group_at(&F, sym_dims(&F, p->sym), r)), p->sym->name);
  }

  Buf all = {0};
  buf_puts(&all, "{");
  buf_add(&all, pro.data ? pro.data : "", pro.len);
  buf_puts(&all, F.out.data + 1);
  edit_replace(el, body->begin, body->end - body->begin, all.data);
  buf_free(&all);
  buf_free(&pro);
  buf_free(&F.out);

  emit_clones(&F, el);
  if (k->p.mode == MODE_THREAD)
    rescale_launch_bounds(&F, fn, el);
  if (k->p.mode == MODE_BLOCK) {
    rescale_cluster_dims(&F, fn, el);
    add_grid_param(&F, fn, el);
    for (int i = 0; i < u->fn_decls.len; i++) {
      Node *decl = u->fn_decls.items[i];
      if (decl->sym == k->sym)
        add_grid_param(&F, decl, el);
    }
    add_grid_param_instantiations(&F, el);
    k->uses_grid_extent = true;
  }
  if (k->annotated && F.multi)
    edit_replace(el, k->pragma_off, k->pragma_len,
                 arena_printf("/* tfuse: coarsened by %s (%d copies), %s mode along %s%s%s */", params_factor_text(&k->p),
                              F.K, mode_name(k->p.mode), params_dim_text(&k->p), k->p.mode == MODE_THREAD ? ", " : "",
                              k->p.mode == MODE_THREAD ? mapping_name(k->p.mapping) : ""));
  else if (k->annotated)
    edit_replace(el, k->pragma_off, k->pragma_len,
                 arena_printf("/* tfuse: coarsened by %d, %s mode along %s%s%s */", F.K, mode_name(k->p.mode), d,
                              k->p.mode == MODE_THREAD ? ", " : "",
                              k->p.mode == MODE_THREAD ? mapping_name(k->p.mapping) : ""));
  return true;
}
