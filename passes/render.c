/* render: a range of a kernel's text as copy r writes it, and what the
 * rendering needs to know first.
 *
 * Contract: render_ex and render_sites give the text of [b, e) of the
 * input for copy r (r < 0: the uniform text): each varying name renamed
 * (`e` -> `e_r`), each changed builtin replaced by the copy's logical index
 * (copies.c's names, seed_text), a call of a helper that reads a changed
 * builtin redirected to its per-copy clone (emitted here, before the
 * kernel: clone_helpers), default arguments that read one spelled out at
 * the call, cooperative groups' queries in thread mode written per copy.
 * Also the statements' classification (what each statement reads and
 * writes, stmt_facts) and the guards a copy's statement needs (a copy's
 * liveness flag where it stores, calls or loads what depends on it).
 * emit.c writes the statements from these pieces. */
#include "fuse.h"
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

static bool sym_is_renamed(const Sym *s) {
  return s && s->varying && (s->kind == SYM_LOCAL || s->kind == SYM_PARAM || s->kind == SYM_SHARED);
}

/* The logical index along dimension dim of copy r along it. */
static char *seed_text(Fuse *F, int dim, int r) {
  const Kernel *k = F->k;
  const char *d = dim_name(dim);
  int K = F->kd[dim];
  if (k->p.mode == MODE_BLOCK)
    return r == 0 ? arena_printf("(blockIdx.%s * %d)", d, K) : arena_printf("(blockIdx.%s * %d + %d)", d, K, r);
  if (k->p.mapping == MAP_CONSECUTIVE)
    return r == 0 ? arena_printf("(threadIdx.%s * %d)", d, K)
                  : arena_printf("(threadIdx.%s * %d + %d)", d, K, r);
  return r == 0 ? arena_printf("(threadIdx.%s)", d) : arena_printf("(threadIdx.%s + %d * blockDim.%s)", d, r, d);
}

static char *rescaled_text(Fuse *F, int dim) {
  const Kernel *k = F->k;
  const char *d = dim_name(dim);
  if (k->p.mode == MODE_BLOCK)
    return arena_printf("__tf_grid_%s", d);
  return arena_printf("(blockDim.%s * %d)", d, F->kd[dim]);
}

/* ---- cooperative groups' queries in thread mode ----
 *
 * legality.c (cg_thread_query_obstacle) lets through, with whole warps,
 * the block's queries and the meta_group_* of a tile partitioned from the
 * block: each copy's call becomes its value over the copy's logical index
 * and the logical extent, the substitutions of threadIdx and blockDim, cast
 * to the type CUDA's headers return (K = 2, copy 1):
 *
 *   block.thread_rank()    ->  ((unsigned int)((threadIdx.x + 1 * blockDim.x)
 *                                + (blockDim.x * 2) * (threadIdx.y + blockDim.y * threadIdx.z)))
 *   warp.meta_group_rank() ->  ((unsigned int)(<that rank> / 32u))
 */

/* The copy's logical threadIdx (idx) or blockDim along d. */
static char *logical_text(Fuse *F, bool idx, int d, Copy c) {
  if (F->kd[d] > 1)
    return idx ? seed_text(F, d, c.r[d]) : rescaled_text(F, d);
  return arena_printf("%s.%s", idx ? "threadIdx" : "blockDim", dim_name(d));
}

/* What the query `call` of copy c is, or NULL where it stays as written. */
static char *cg_query_text(Fuse *F, Node *call, Copy c) {
  CgQuery q = F->k->p.mode == MODE_THREAD ? cg_query_of(call) : CGQ_NONE;
  if (q == CGQ_NONE)
    return NULL;
  char *x = logical_text(F, true, 0, c), *y = logical_text(F, true, 1, c), *z = logical_text(F, true, 2, c);
  char *bx = logical_text(F, false, 0, c), *by = logical_text(F, false, 1, c), *bz = logical_text(F, false, 2, c);
  char *rank = arena_printf("%s + %s * (%s + %s * %s)", x, bx, y, by, z);
  char *size = arena_printf("%s * %s * %s", bx, by, bz);
  int n = cg_group_operand(call)->cg_tile;
  switch (q) {
  case CGQ_RANK:
    return arena_printf("((unsigned int)(%s))", rank);
  case CGQ_SIZE:
    return arena_printf("((unsigned int)(%s))", size);
  case CGQ_INDEX:
    return arena_printf("dim3(%s, %s, %s)", x, y, z);
  case CGQ_DIM:
    return arena_printf("dim3(%s, %s, %s)", bx, by, bz);
  case CGQ_META_RANK:
    return arena_printf("((unsigned int)((%s) / %du))", rank, n);
  case CGQ_META_SIZE:
    return arena_printf("((unsigned int)((%s + %du) / %du))", size, n - 1, n);
  default:
    return NULL;
  }
}

/* ---- rendering a range of the input for copy r (r < 0: uniform) ---- */

static void collect(Fuse *F, Node *n, unsigned b, unsigned e, Copy c, int ret_label, Vec *sites);
static char *render_sites(Fuse *F, unsigned b, unsigned e, Vec *sites);

/* ---- per-copy clones of helpers that read the coarsened indices ----
 *
 * A helper that reads a builtin the coarsening changes (legality.c lets
 * through only those it can clone) gets one clone per kernel, inserted
 * before the kernel, with the copy's index as its first parameter:
 *
 *   __device__ int tid() { return threadIdx.x; }
 *   __device__ int tid__tf_k(unsigned int __tf_r) { return (threadIdx.x + __tf_r * blockDim.x); }
 *
 * and the kernel's copy r calls `tid__tf_k(r)`.  In block mode the clone
 * also takes the original grid extent (`gridDim` is rescaled to it).  A
 * clone calls the clones of the helpers it calls. */

/* The helper a call calls, when it needs a clone. */
static Sym *clone_callee(Fuse *F, const Node *call) {
  Sym *fn = call->sym ? call->sym : call->ncand == 1 ? call->cand[0] : NULL;
  return call->kind == N_CALL && fn_reads_changed_builtins(F->k, fn) ? fn : NULL;
}

/* helper__tf_kernel; for a variant of -factor auto, helper__tf_kernel_bx4:
 * each variant has clones of its own. */
static char *clone_name(Fuse *F, const Sym *fn) {
  const char *tag = F->k->variant_tag;
  char *name = arena_printf("%s__tf_%s%s%s", fn->name, F->k->sym->name, tag ? "_" : "", tag ? tag : "");
  while (unit_has_ident(F->u, name))
    name = arena_printf("%s_", name);
  return name;
}

/* The copy's logical index and the rescaled extent inside a clone, where
 * the copy is the parameter __tf_r. */
static char *clone_seed_text(Fuse *F, int dim) {
  const Kernel *k = F->k;
  const char *d = dim_name(dim);
  /* Several dimensions: the copy's index along each is a parameter of its own, __tf_rx, __tf_ry. */
  const char *r = F->multi ? arena_printf("__tf_r%s", d) : "__tf_r";
  if (k->p.mode == MODE_BLOCK)
    return arena_printf("(blockIdx.%s * %d + %s)", d, F->kd[dim], r);
  if (k->p.mapping == MAP_CONSECUTIVE)
    return arena_printf("(threadIdx.%s * %d + %s)", d, F->kd[dim], r);
  return arena_printf("(threadIdx.%s + %s * blockDim.%s)", d, r, d);
}

/* The leading arguments of a call of a clone: the copy (`3`, or `1, 0` with
 * several dimensions; `__tf_r` or `__tf_rx, __tf_ry` inside a clone), then
 * in block mode the grid extents. */
static char *clone_args(Fuse *F, const Copy *c) {
  Buf b = {0};
  for (int d = 0; d < 3; d++)
    if (F->all >> d & 1) {
      if (c)
        buf_printf(&b, "%s%d", b.len ? ", " : "", c->r[d]);
      else
        buf_printf(&b, "%s__tf_r%s", b.len ? ", " : "", F->multi ? dim_name(d) : "");
    }
  for (int d = 0; d < 3 && F->k->p.mode == MODE_BLOCK; d++)
    if (F->all >> d & 1)
      buf_printf(&b, ", __tf_grid_%s", dim_name(d));
  char *t = arena_strdup(b.data);
  buf_free(&b);
  return t;
}

/* The clone's leading parameters, as clone_args passes them. */
static char *clone_params(Fuse *F) {
  Buf b = {0};
  for (int d = 0; d < 3; d++)
    if (F->all >> d & 1)
      buf_printf(&b, "%sunsigned int __tf_r%s", b.len ? ", " : "", F->multi ? dim_name(d) : "");
  for (int d = 0; d < 3 && F->k->p.mode == MODE_BLOCK; d++)
    if (F->all >> d & 1)
      buf_printf(&b, ", unsigned int __tf_grid_%s", dim_name(d));
  char *t = arena_strdup(b.data);
  buf_free(&b);
  return t;
}

/* The sites that point a call of a cloned helper at its clone for copy
 * `copy` (NULL inside a clone: its own): the name, then the copy (and the
 * grid extents) as the first arguments. */
static void clone_call_sites(Fuse *F, Node *call, Sym *fn, const Copy *copy, Vec *sites) {
  Node *c = node_strip(call->kid[0]);
  add_site(sites, c->loc, (unsigned)strlen(fn->name), clone_name(F, fn));
  unsigned open = source_skip_space(F->src, c->end);
  unsigned next = source_skip_space(F->src, open + 1);
  bool empty = next < F->src->len && F->src->text[next] == ')';
  add_site(sites, open + 1, 0, arena_printf("%s%s", clone_args(F, copy), empty ? "" : ", "));
}

static void default_arg_sites(Fuse *F, Node *call, const Copy *copy, Vec *sites);

/* Block mode: a query of cooperative groups' grid (`grid.thread_rank()`,
 * `cg::this_grid().size()`) written out for copy c as the header computes
 * it (cooperative_groups/details/helpers.h, namespace grid), from the
 * logical block index and grid extent as seed_text and rescaled_text
 * render blockIdx and gridDim, with the header's types; NULL if n is not
 * one.  legality.c (cg_block_refusal) leaves them only in the kernel's text. */
static char *grid_query_text(Fuse *F, const Node *n, Copy c) {
  if (n->kind != N_CALL || F->k->p.mode != MODE_BLOCK || !cg_is_grid_query(n->sym))
    return NULL;
  const char *b[3], *g[3], *t[3] = {"threadIdx.x", "threadIdx.y", "threadIdx.z"},
                        *bd[3] = {"blockDim.x", "blockDim.y", "blockDim.z"};
  for (int d = 0; d < 3; d++) {
    bool co = F->all >> d & 1;
    if (co && !(c.mask >> d & 1)) {
      F->failed = true;
      error_at(n->begin, "internal error: a query of the grid in a statement emitted once");
      return NULL;
    }
    b[d] = co ? seed_text(F, d, c.r[d]) : arena_printf("blockIdx.%s", dim_name(d));
    g[d] = co ? rescaled_text(F, d) : arena_printf("gridDim.%s", dim_name(d));
  }
  const char *nm = n->sym->name;
  char *blocks = arena_printf("((unsigned long long)%s * (%s * %s))", g[0], g[1], g[2]);
  char *cta_threads = "((unsigned int)(blockDim.x * blockDim.y * blockDim.z))";
  char *rank = arena_printf("((unsigned long long)%s * %s * %s + (unsigned long long)%s * %s + "
                            "(unsigned long long)%s)", b[2], g[1], g[0], b[1], g[0], b[0]);
  if (!strcmp(nm, "num_blocks"))
    return blocks;
  if (!strcmp(nm, "block_rank"))
    return rank;
  if (!strcmp(nm, "num_threads") || !strcmp(nm, "size"))
    return arena_printf("(%s * %s)", blocks, cta_threads);
  if (!strcmp(nm, "thread_rank"))
    return arena_printf("(%s * %s + ((unsigned int)threadIdx.z * blockDim.y * blockDim.x + (unsigned int)threadIdx.y "
                        "* blockDim.x + (unsigned int)threadIdx.x))", rank, cta_threads);
  if (!strcmp(nm, "dim_blocks") || !strcmp(nm, "group_dim"))
    return arena_printf("dim3(%s, %s, %s)", g[0], g[1], g[2]);
  if (!strcmp(nm, "block_index"))
    return arena_printf("dim3(%s, %s, %s)", b[0], b[1], b[2]);
  if (!strcmp(nm, "dim_threads"))
    return arena_printf("dim3(%s * %s, %s * %s, %s * %s)", g[0], bd[0], g[1], bd[1], g[2], bd[2]);
  return arena_printf("dim3(%s * %s + %s, %s * %s + %s, %s * %s + %s)", b[0], bd[0], t[0], b[1], bd[1], t[1], b[2],
                      bd[2], t[2]); /* thread_index */
}

/* The sites of the builtins and clone calls in n for copy `copy` (NULL:
 * inside a clone, where the copy is the parameter __tf_r). */
static void builtin_sites(Fuse *F, Node *n, const Copy *copy, Vec *sites) {
  if (n->kind == N_BUILTIN && n->bi_dim >= 0) {
    if (builtin_is_seed(F->k, n)) {
      if (copy && !(copy->mask >> n->bi_dim & 1)) {
        F->failed = true;
        error_at(n->begin, "internal error: logical index in a statement emitted once");
      } else {
        add_site(sites, n->begin, n->end - n->begin,
                 copy ? seed_text(F, n->bi_dim, copy->r[n->bi_dim]) : clone_seed_text(F, n->bi_dim));
      }
    } else if (builtin_is_rescaled(F->k, n)) {
      add_site(sites, n->begin, n->end - n->begin, rescaled_text(F, n->bi_dim));
    }
    return;
  }
  char *q = copy ? grid_query_text(F, n, *copy) : NULL;
  if (q) {
    add_site(sites, n->begin, n->end - n->begin, q);
    return;
  }
  Sym *fn = clone_callee(F, n);
  if (fn)
    clone_call_sites(F, n, fn, copy, sites);
  if (n->kind == N_CALL)
    default_arg_sites(F, n, copy, sites);
  for (int i = 0; i < n->nkid; i++)
    builtin_sites(F, n->kid[i], copy, sites);
}

static void clone_collect(Fuse *F, Node *n, Vec *sites) { builtin_sites(F, n, NULL, sites); }

/* ---- default arguments that read the coarsened indices ----
 *
 * A default argument is evaluated at the call, in the caller's thread:
 * `gid()` with `unsigned b = blockIdx.x` reads the copy's logical block.
 * Its text is in the declaration, where no rewrite of the call reaches, so
 * the call spells the left-out arguments out, rendered for the copy
 * (legality.c lets through only defaults made of builtins, literals and
 * arithmetic, which mean the same at the call):
 *
 *   int i = gid();    ->   int i_1 = gid((blockIdx.x * 2 + 1), blockDim.x, threadIdx.x);
 */
static void default_arg_sites(Fuse *F, Node *call, const Copy *copy, Vec *sites) {
  Reads r = {0};
  Vec defs = {0};
  reads_of_defaults(call, &r, &defs);
  bool changed = reads_changed(F->k, &r);
  reads_free(&r);
  if (!changed || !defs.len || call->in_macro || call->end <= call->begin || F->src->text[call->end - 1] != ')') {
    vec_free(&defs);
    return;
  }
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  bool written = false;
  for (int i = 0; i < args.len; i++)
    written |= !arg_is_default(args.items[i]);
  vec_free(&args);
  Buf b = {0};
  for (int i = 0; i < defs.len; i++) {
    Node *d = defs.items[i];
    if (!d || d->end <= d->begin) {
      F->failed = true; /* legality refuses these first */
      error_at(call->begin, "internal error: a default argument without text");
      break;
    }
    Vec ds = {0};
    builtin_sites(F, d, copy, &ds);
    buf_printf(&b, "%s%s", written || i ? ", " : "", render_sites(F, d->begin, d->end, &ds));
    vec_free(&ds);
  }
  if (b.data)
    add_site(sites, call->end - 1, 0, arena_strdup(b.data));
  buf_free(&b);
  vec_free(&defs);
}

/* Appends to `out` the clones of the helpers n calls that need one, callees
 * first, each once (`done`). */
static void clone_helpers(Fuse *F, Node *n, Vec *done, Buf *out) {
  Sym *fn = clone_callee(F, n);
  if (fn) {
    bool seen = false;
    for (int i = 0; i < done->len && !seen; i++)
      seen = done->items[i] == fn;
    if (!seen) {
      vec_push(done, fn);
      clone_helpers(F, fn->body, done, out);
      Node *d = fn->fn_decl;
      Vec sites = {0};
      add_site(&sites, d->loc, (unsigned)strlen(fn->name), clone_name(F, fn));
      unsigned open = d->loc + (unsigned)strlen(fn->name);
      while (open < d->end && F->src->text[open] != '(')
        open++;
      const char *params = clone_params(F);
      unsigned close = text_match(F->src, open, d->end) - 1;
      unsigned q = source_skip_space(F->src, open + 1);
      if (q >= close)
        add_site(&sites, open + 1, 0, (char *)params);
      else if (close - q == 4 && !strncmp(F->src->text + q, "void", 4))
        add_site(&sites, q, 4, (char *)params);
      else
        add_site(&sites, open + 1, 0, arena_printf("%s, ", params));
      clone_collect(F, fn->body, &sites);
      buf_printf(out, "/* tfuse: '%s' for one copy of '%s' (the copy is %s) */\n", fn->name, F->k->sym->name,
                 F->multi ? (F->all == 3 ? "(__tf_rx, __tf_ry)" : F->all == 5 ? "(__tf_rx, __tf_rz)"
                             : F->all == 6 ? "(__tf_ry, __tf_rz)" : "(__tf_rx, __tf_ry, __tf_rz)") : "__tf_r");
      buf_puts(out, render_sites(F, d->begin, d->end, &sites));
      buf_puts(out, "\n\n");
      vec_free(&sites);
    }
  }
  for (int i = 0; i < n->nkid; i++)
    clone_helpers(F, n->kid[i], done, out);
}

void emit_clones(Fuse *F, EditList *el) {
  Vec done = {0};
  Buf out = {0};
  clone_helpers(F, F->k->fn->sym->body, &done, &out);
  if (out.len)
    edit_insert(el, F->k->annotated ? F->k->pragma_off : F->k->fn->begin, out.data);
  vec_free(&done);
  buf_free(&out);
}

/* Adds the sites of a promoted access (a read, a store or an update) and
 * returns true if `n`'s subtree is done. */
static bool collect_promoted(Fuse *F, Node *n, unsigned b, unsigned e, Copy c, int ret_label, Vec *sites) {
  if (n->in_macro || n->begin < b || n->end > e)
    return false;
  if (n->kind == N_SUBSCRIPT) {
    Node *p = node_parent(n);
    if (p && ((p->kind == N_ASSIGN && node_strip(p->kid[0]) == n) || node_is_incdec(p)))
      return false; /* the store is rewritten at its operator */
    Promo *pr = n->promo;
    if (!pr || (promo_dims(F, pr) & ~c.mask))
      return false; /* shared memory holds the same value */
    add_site(sites, n->begin, n->end - n->begin, (char *)promo_reg(F, pr, c));
    return true;
  }
  if (n->kind == N_ASSIGN && n->nkid == 2) {
    Node *lhs = node_strip(n->kid[0]);
    Promo *pr = lhs->promo;
    if (!pr)
      return false;
    if (promo_dims(F, pr) & ~c.mask) {
      F->failed = true;
      error_at(n->begin, "internal error: a promoted store in a statement emitted once");
      return true;
    }
    /* `A[i] op= v` -> `A[i] = A_reg op= v`: the register, then shared. */
    unsigned ob = n->kid[0]->end, oe = n->kid[1]->begin;
    const char *t = F->src->text;
    while (ob < oe && (t[ob] == ' ' || t[ob] == '\t' || t[ob] == '\n' || t[ob] == ')'))
      ob++;
    while (oe > ob && (t[oe - 1] == ' ' || t[oe - 1] == '\t' || t[oe - 1] == '\n' || t[oe - 1] == '('))
      oe--;
    add_site(sites, ob, oe - ob, arena_printf("= %s %.*s", promo_reg(F, pr, c), (int)(oe - ob), t + ob));
    return false; /* the operands are rendered as usual */
  }
  if (node_is_incdec(n) && n->nkid == 1) {
    Node *acc = node_strip(n->kid[0]);
    Promo *pr = acc->promo;
    if (!pr)
      return false;
    if (promo_dims(F, pr) & ~c.mask) {
      F->failed = true;
      error_at(n->begin, "internal error: a promoted update in a statement emitted once");
      return true;
    }
    Vec inner = {0};
    for (int i = 0; i < acc->nkid; i++)
      collect(F, acc->kid[i], acc->begin, acc->end, c, ret_label, &inner);
    char *lhs = render_sites(F, acc->begin, acc->end, &inner);
    vec_free(&inner);
    const char *op = n->op == OP_PRE_INC || n->op == OP_POST_INC ? "++" : "--";
    add_site(sites, n->begin, n->end - n->begin, arena_printf("(%s = %s%s)", lhs, op, promo_reg(F, pr, c)));
    return true;
  }
  return false;
}


/* Block mode: copy r's view of the dynamic shared memory (`T *sdata =
 * SharedMemory<T>();`, effects.c sym_is_dyn_shared_view) is moved to its
 * share, as a kernel's own extern array is (dyn_shared_copies):
 *   T *sdata_1 = (decltype(sdata_1))((char *)static_cast<decltype(sdata_1)>(SharedMemory<T>())
 *                                     + 1 * (size_t)__tf_dsmem);
 * The launch then asks for K shares and passes __tf_dsmem (launch.c). */
static void dyn_view_site(Fuse *F, Node *var, Copy c, Vec *sites) {
  Sym *s = var->sym;
  if (!s || !s->varying || !sym_is_dyn_shared_view(s))
    return;
  F->k->dyn_shared = true;
  int r = group_index(F, sym_dims(F, s), c);
  Node *init = var_init(var);
  if (!r || !init)
    return;
  if (var->in_macro || !text_is_operand(F->src, init, "=({", ";,)}")) {
    F->failed = true;
    error_at(var->loc, "cannot move '%s' to its copy's share of the dynamic shared memory: tfuse cannot find the text "
             "of its initializer", s->name);
    return;
  }
  const char *name = copy_name(F, s, c);
  char *e = render_ex(F, init, init->begin, init->end, c, 0, NULL);
  vec_push(sites, replace_site(init, arena_printf("(decltype(%s))((char *)static_cast<decltype(%s)>(%s) + %d * "
                                                  "(size_t)__tf_dsmem)", name, name, e, r)));
}

/* Thread mode: `__syncthreads_count(p)` of a logical block is the sum of
 * the copies' counts, since the logical block's threads are the pairs
 * (physical thread, copy), and each copy's call counts its p over the
 * physical block; `_and` and `_or` combine likewise.  Every thread makes
 * the K calls in one order (legality keeps them in uniform control, their
 * predicates free of side effects), and the value is the same for every
 * copy (uniform.c), whatever the copy c being rendered:
 *   __syncthreads_count(t < n)  ->  (__syncthreads_count(t_0 < n) + __syncthreads_count(t_1 < n))
 *   __syncthreads_and(ok)       ->  (!!__syncthreads_and(ok_0) & !!__syncthreads_and(ok_1)) */
static char *block_reduce_text(Fuse *F, Node *call) {
  const char *nm = call->sym->name;
  bool count = strstr(nm, "count") != NULL, and = strstr(nm, "and") != NULL;
  Buf out = {0};
  buf_puts(&out, "(");
  int n = ngroups(F, F->all);
  for (int i = 0; i < n; i++) {
    if (i)
      buf_puts(&out, count ? " + " : and ? " & " : " | ");
    if (!count)
      buf_puts(&out, "!!");
    Vec args = {0};
    for (int k = 0; k < call->nkid; k++)
      collect(F, call->kid[k], call->begin, call->end, group_at(F, F->all, i), 0, &args);
    buf_puts(&out, render_sites(F, call->begin, call->end, &args));
    vec_free(&args);
  }
  buf_puts(&out, ")");
  char *text = arena_strdup(out.data);
  buf_free(&out);
  return text;
}


/* The temporary that holds call's combination, computed before its
 * statement (hoist_block_reductions), or NULL. */
static const char *reduced_name(Fuse *F, const Node *call) {
  for (int i = 0; i + 1 < F->reduced.len; i += 2)
    if (F->reduced.items[i] == call)
      return F->reduced.items[i + 1];
  return NULL;
}

static void find_block_reductions(Node *n, Vec *out) {
  if (n->kind == N_CALL && node_is_block_reduce(n) && !node_in_lambda(n))
    vec_push(out, n);
  for (int i = 0; i < n->nkid; i++)
    find_block_reductions(n->kid[i], out);
}

/* Thread mode: a statement written once per copy that holds
 * `__syncthreads_count/and/or` computes the combination once, before the
 * copies, into a temporary their statements read (legality.c lets through
 * only a statement directly in a block, with one declarator, and the call
 * where it is always evaluated: not in a branch of `?:` or right of `&&`,
 * `||`).  In the statement the call's predicate is
 * evaluated before the barrier and the statement's store after it, so the
 * copies' predicates are those of the original (K = 2):
 *   acc = acc * 5u + (unsigned)__syncthreads_count(acc % 5u != 0u);
 * ->
 *   const auto __tf_b1 = (__syncthreads_count(acc_0 % 5u != 0u) + __syncthreads_count(acc_1 % 5u != 0u));
 *   acc_0 = acc_0 * 5u + (unsigned)__tf_b1;
 *   acc_1 = acc_1 * 5u + (unsigned)__tf_b1; */
void hoist_block_reductions(Fuse *F, Node *s) {
  if (F->k->p.mode != MODE_THREAD)
    return;
  Vec calls = {0};
  find_block_reductions(s, &calls);
  for (int i = 0; i < calls.len; i++) {
    Node *call = calls.items[i];
    char *name = arena_printf("__tf_b%d", ++F->hoist_seq);
    piece(F, indent_of(F, s), arena_printf("const auto %s = %s; /* tfuse: '%s' of the copies, once */", name,
                                           block_reduce_text(F, call), call->sym->name));
    vec_push(&F->reduced, call);
    vec_push(&F->reduced, name);
  }
  vec_free(&calls);
}

static void collect(Fuse *F, Node *n, unsigned b, unsigned e, Copy c, int ret_label, Vec *sites) {
  if (n->end > n->begin && (n->end <= b || n->begin >= e))
    return;
  if (n->kind == N_VAR && F->k->p.mode == MODE_BLOCK && n->loc >= b && n->loc < e)
    dyn_view_site(F, n, c, sites);
  if (F->k->promoted.len && collect_promoted(F, n, b, e, c, ret_label, sites))
    return;
  switch (n->kind) {
  case N_VAR:
  case N_DECL_REF:
    if (sym_is_renamed(n->sym) && !n->in_macro && n->loc >= b && n->loc < e) {
      if (sym_dims(F, n->sym) & ~c.mask) {
        F->failed = true;
        error_at(n->loc, "internal error: varying '%s' in a statement emitted once%s", n->sym->name,
                 c.mask ? " per copy along fewer dimensions" : "");
      } else if (n->sym->ilv && n->kind == N_DECL_REF) {
        interleaved_sites(F, n, e, c, sites);
      } else {
        add_site(sites, n->loc, (unsigned)strlen(n->sym->name), (char *)copy_name(F, n->sym, c));
      }
    }
    break;
  case N_BUILTIN:
    if (n->bi_dim >= 0 && n->begin >= b && n->end <= e) {
      if (builtin_is_seed(F->k, n)) {
        if (!(c.mask >> n->bi_dim & 1)) {
          F->failed = true;
          error_at(n->begin, "internal error: logical index in a statement emitted once");
        } else {
          add_site(sites, n->begin, n->end - n->begin, seed_text(F, n->bi_dim, c.r[n->bi_dim]));
        }
      } else if (builtin_is_rescaled(F->k, n)) {
        add_site(sites, n->begin, n->end - n->begin, rescaled_text(F, n->bi_dim));
      }
    }
    return;
  case N_CALL: {
    char *q = n->begin >= b && n->end <= e ? cg_query_text(F, n, c) : NULL;
    if (q) {
      if (!(c.mask & 1)) {
        F->failed = true;
        error_at(n->begin, "internal error: logical index in a statement emitted once");
      } else {
        add_site(sites, n->begin, n->end - n->begin, q);
      }
      return; /* the group's expression goes with the call */
    }
    if (!n->in_macro && n->begin >= b && n->end <= e && cg_is_grid_query(n->sym) && F->k->p.mode == MODE_BLOCK) {
      q = grid_query_text(F, n, c);
      if (q)
        add_site(sites, n->begin, n->end - n->begin, q);
      return;
    }
    if (F->k->p.mode == MODE_THREAD && node_is_block_reduce(n) && n->begin >= b && n->end <= e) {
      const char *tmp = reduced_name(F, n);
      add_site(sites, n->begin, n->end - n->begin, tmp ? (char *)tmp : block_reduce_text(F, n));
      return;
    }
    if (clone_callee(F, n) && !n->in_macro && n->begin >= b && n->end <= e) {
      if (c.mask != F->all) {
        F->failed = true;
        error_at(n->begin, "internal error: a call of '%s', which is cloned per copy, in a statement emitted once",
                 clone_callee(F, n)->name);
      } else {
        clone_call_sites(F, n, clone_callee(F, n), &c, sites);
      }
    }
    if (!n->in_macro && n->begin >= b && n->end <= e)
      default_arg_sites(F, n, &c, sites);
    break;
  }
  case N_LAMBDA:
    /* Its explicit captures (`[x, &y]`, an init-capture's own name: each
     * renamed with its variable, as the body's uses are), init-captures'
     * initializers, parameters (renamed with their uses where they vary)
     * and body: the implicit captures of `[=]` are references located at
     * the `=`, with no name to rename, and a `[x]` capture's copy is at
     * the capture's name; a return in the body leaves the lambda, not the
     * copy. */
    for (int i = 0; i < n->nkid; i++) {
      Node *k = n->kid[i];
      if (k->kind == N_OTHER && k->captured && sym_is_renamed(k->captured) && !k->in_macro && k->loc >= b &&
          k->loc < e && !strncmp(F->src->text + k->loc, k->captured->name, strlen(k->captured->name)))
        add_site(sites, k->loc, (unsigned)strlen(k->captured->name), (char *)copy_name(F, k->captured, c));
      if (k->kind == N_PARAM && sym_is_renamed(k->sym) && k->loc >= b && k->loc < e)
        add_site(sites, k->loc, (unsigned)strlen(k->sym->name), (char *)copy_name(F, k->sym, c));
      if (k->kind == N_PARAM || i == n->nkid - 1 || lambda_capture_init(F->src->text, n, k))
        collect(F, k, b, e, c, 0, sites);
    }
    return;
  case N_RETURN:
    if (ret_label && c.mask && n->begin >= b) {
      if (c.mask != F->all) {
        F->failed = true;
        error_at(n->begin, "internal error: a return in code emitted per copy along fewer dimensions");
      }
      char *sfx = copy_suffix(F, F->all, c);
      add_site(sites, n->begin, 6,
               arena_printf("do { __tf_live%s = false; goto __tf_ret%d%s; } while (0)", sfx, ret_label, sfx));
    }
    break;
  default:
    break;
  }
  for (int i = 0; i < n->nkid; i++)
    collect(F, n->kid[i], b, e, c, ret_label, sites);
}

static int cmp_site(const void *a, const void *b) {
  const Site *x = *(Site *const *)a, *y = *(Site *const *)b;
  if (x->off != y->off)
    return x->off < y->off ? -1 : 1;
  if ((x->len == 0) != (y->len == 0))
    return x->len == 0 ? -1 : 1; /* an insertion goes before a replacement here */
  return x->seq - y->seq;
}

/* Text of [b, e) with the sites spliced in (sorts `sites`). */
static char *render_sites(Fuse *F, unsigned b, unsigned e, Vec *sites) {
  if (sites->len)
    qsort(sites->items, (size_t)sites->len, sizeof(void *), cmp_site);
  Buf out = {0};
  unsigned pos = b;
  for (int i = 0; i < sites->len; i++) {
    Site *s = sites->items[i];
    if (s->off < pos)
      continue; /* nested in a replaced range */
    buf_add(&out, F->src->text + pos, s->off - pos);
    buf_puts(&out, s->text);
    pos = s->off + s->len;
  }
  if (pos < e)
    buf_add(&out, F->src->text + pos, e - pos);
  char *res = arena_strdup(out.data ? out.data : "");
  buf_free(&out);
  return res;
}

/* Text of [b, e) for copy r, with `extra` sites (insertions) merged. */
char *render_ex(Fuse *F, Node *root, unsigned b, unsigned e, Copy c, int ret_label, Vec *extra) {
  Vec sites = {0};
  collect(F, root, b, e, c, ret_label, &sites);
  if (extra)
    for (int i = 0; i < extra->len; i++) {
      Site *x = extra->items[i];
      if (x->off >= b && x->off + x->len <= e) /* a site outside [b, e) is another part's */
        vec_push(&sites, x);
    }
  char *res = render_sites(F, b, e, &sites);
  vec_free(&sites);
  return res;
}

char *render(Fuse *F, Node *n, Copy c) { return render_ex(F, n, n->begin, stmt_end(F->src, n), c, 0, NULL); }

/* Statement `stmt` for copy r with the expression `part` replaced by
 * `text` (which must already be rendered for copy r). */
/* A site replacing the whole of `part` by `text`, ahead of any site inside
 * it (the sites within a replaced range are dropped). */
Site *replace_site(Node *part, const char *text) {
  Site *site = arena_alloc(sizeof *site);
  site->off = part->begin;
  site->len = part->end - part->begin;
  site->text = (char *)text;
  site->seq = -1; /* before a site of `part` itself at the same offset */
  return site;
}

char *render_replacing(Fuse *F, Node *stmt, Node *part, const char *text, Copy c) {
  Vec extra = {0};
  vec_push(&extra, replace_site(part, text));
  char *res = render_ex(F, stmt, stmt->begin, stmt_end(F->src, stmt), c, 0, &extra);
  vec_free(&extra);
  return res;
}

/* ---- classification ---- */

static bool is_local_sym(const Sym *s) { return s && (s->kind == SYM_LOCAL || s->kind == SYM_PARAM); }

/* The array a (possibly nested) subscript indexes: `A` of `A[i][j]`. */
Node *subscript_base(Node *n) {
  Node *b = node_strip(n);
  while (b && b->kind == N_SUBSCRIPT)
    b = node_strip(b->kid[0]);
  return b;
}

/* Whether a subscript's base is an array of this thread's own (a local or
 * a replicated shared array), where only the index decides the address. */
static bool base_is_own_array(Node *base) {
  Node *b = subscript_base(base);
  if (!b || b->kind != N_DECL_REF || !b->sym)
    return false;
  return (is_local_sym(b->sym) && b->sym->is_array) || b->sym->kind == SYM_SHARED;
}

bool index_varying(Node *sub) {
  Node *n = sub;
  while (n && n->kind == N_SUBSCRIPT) {
    if (n->nkid > 1 && n->kid[1]->varying)
      return true;
    n = node_strip(n->kid[0]);
  }
  return false;
}


static void facts_rec(Fuse *F, Node *n, Facts *f) {
  switch (n->kind) {
  case N_LAMBDA:
    return; /* its body runs at the calls, which count as effects (effects.c) */
  case N_SUBSCRIPT:
    f->any_load = true;
    if (base_is_own_array(n->kid[0]) ? index_varying(n) : n->varying)
      f->unsafe_load = true;
    break;
  case N_UNOP:
    if (n->op == OP_DEREF) {
      f->any_load = true;
      if (n->varying)
        f->unsafe_load = true;
    }
    break;
  case N_MEMBER:
    if (n->arrow) {
      f->any_load = true;
      if (n->kid[0]->varying)
        f->unsafe_load = true;
    }
    break;
  case N_DECL_REF:
    if (n->sym && (n->sym->kind == SYM_GLOBAL || (n->sym->kind == SYM_SHARED && !n->sym->is_array)))
      f->any_load = true;
    break;
  case N_CALL:
    /* A helper's body may load through its arguments; a clone, at an
     * address made of the copy's index. */
    if (n->sym && n->sym->body) {
      f->any_load = true;
      for (int i = 0; i < n->nkid; i++)
        if (n->kid[i]->varying)
          f->unsafe_load = true;
    }
    if (clone_callee(F, n))
      f->any_load = f->unsafe_load = true;
    /* A load spelled as a call (`__ldg(in + i)`, `__ldcs`, `__ldlu`,
     * `tex1Dfetch<float>(t, i)`): at an address that depends on the copy, a
     * dead copy's may lie past the array. */
    if (n->sym && (fn_class(n->sym) == FN_LOAD || fn_class(n->sym) == FN_LOAD_SHARED)) {
      f->any_load = true;
      for (int i = 0; i < n->nkid; i++)
        if (n->kid[i]->varying)
          f->unsafe_load = true;
    }
    break;
  case N_FOR:
  case N_WHILE:
  case N_DO:
    f->has_loop = true;
    break;
  default:
    break;
  }
  for (int i = 0; i < n->nkid; i++)
    facts_rec(F, n->kid[i], f);
}

/* Loads and loops from the tree; writes and effects from effects.c. */
Facts facts_of(Fuse *F, Node *n) {
  Facts f = {0};
  if (!n)
    return f;
  facts_rec(F, n, &f);
  Effects e = {0};
  effects_of(n, &e);
  f.effects = effects_beyond_locals(&e);
  for (int i = 0; i < e.writes.len; i++) {
    Sym *s = e.writes.items[i];
    if (s->kind == SYM_LOCAL || s->kind == SYM_PARAM)
      vec_push(&f.written, s);
  }
  effects_free(&e);
  return f;
}

static bool refs_outside(const Node *n, const Sym *s, unsigned b, unsigned e) {
  if ((n->kind == N_DECL_REF) && n->sym == s && (n->loc < b || n->loc >= e))
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (refs_outside(n->kid[i], s, b, e))
      return true;
  return false;
}

/* Whether an inactive copy may write `s` here without changing what its
 * logical thread observes: true when every use of `s` lies inside the
 * predicated statement and no loop between the declaration and that
 * statement could carry the value into a later, active, iteration. */
static bool write_is_confined(Fuse *F, const Sym *s, const Ctx *ctx) {
  Node *stmt = ctx->region_stmt;
  if (!stmt || s->kind == SYM_PARAM || s->addr_taken)
    return false;
  for (Node *p = stmt->parent; p; p = p->parent) {
    if (p->kind == N_FOR || p->kind == N_WHILE || p->kind == N_DO)
      return false;
    if (p->begin <= s->decl_off && s->decl_off < p->end)
      break;
  }
  /* Every use in one branch: a copy that skipped the branch never reads
   * what it wrote there (not `t = 1` in the then-branch read by the else). */
  Node *body = F->k->fn->sym->body;
  if (stmt->then && !refs_outside(body, s, stmt->then->begin, stmt_end(F->src, stmt->then)))
    return true;
  return stmt->els && !refs_outside(body, s, stmt->els->begin, stmt_end(F->src, stmt->els));
}

bool facts_need_guard(Fuse *F, const Facts *f, const Ctx *ctx) {
  if (f->effects || f->unsafe_load || f->has_loop || (f->any_load && !ctx->any_true))
    return true;
  for (int i = 0; i < f->written.len; i++) {
    Sym *s = f->written.items[i];
    if (s->region < ctx->region && !write_is_confined(F, s, ctx))
      return true;
  }
  return false;
}

/* ---- guards ---- */

/* The guard of one copy (c covers every coarsened dimension). */
char *guard_of(Fuse *F, const Ctx *ctx, Copy c) {
  const char *p = ctx->pred[group_index(F, F->all, c)];
  if (ctx->live_active) {
    char *live = arena_printf("__tf_live%s", copy_suffix(F, F->all, c));
    return p ? arena_printf("%s && %s", p, live) : live;
  }
  return p ? arena_strdup(p) : NULL;
}

/* Whether the conjunction a (identifiers joined by ` && `) has every term of b. */
static bool conj_has_all(const char *a, const char *b) {
  for (const char *t = b; *t;) {
    const char *end = strstr(t, " && ");
    size_t n = end ? (size_t)(end - t) : strlen(t);
    bool found = false;
    for (const char *u = a; *u && !found;) {
      const char *ue = strstr(u, " && ");
      size_t m = ue ? (size_t)(ue - u) : strlen(u);
      found = m == n && !strncmp(u, t, n);
      u = ue ? ue + 4 : u + m;
    }
    if (!found)
      return false;
    t = end ? end + 4 : t + n;
  }
  return true;
}

/* Several dimensions: the guard of a group of copies (g.mask may leave
 * dimensions out): it runs when any of them would, so the disjunction of
 * theirs, without repeats and without a conjunction that has every term of
 * another (`__tf_ok_x1 || __tf_ok_x1 && __tf_ok_y1` is `__tf_ok_x1`); NULL
 * when one of them is always true. */
char *group_guard(Fuse *F, const Ctx *ctx, Copy g) {
  if (g.mask == F->all)
    return guard_of(F, ctx, g);
  if (ctx->any_true && !g.mask)
    return NULL;
  unsigned rest = F->all & ~g.mask;
  int n = ngroups(F, rest);
  char **gs = arena_alloc(sizeof(char *) * (size_t)n);
  for (int i = 0; i < n; i++) {
    Copy c = group_at(F, rest, i);
    c.mask = F->all;
    for (int d = 0; d < 3; d++)
      if (g.mask >> d & 1)
        c.r[d] = g.r[d];
    gs[i] = guard_of(F, ctx, c);
    if (!gs[i])
      return NULL;
  }
  Buf b = {0};
  int kept = 0;
  for (int i = 0; i < n; i++) {
    bool drop = false;
    for (int j = 0; j < n && !drop; j++)
      drop = j != i && conj_has_all(gs[i], gs[j]) && (!conj_has_all(gs[j], gs[i]) || j < i);
    if (drop)
      continue;
    buf_printf(&b, strstr(gs[i], "&&") ? "%s(%s)" : "%s%s", kept++ ? " || " : "", gs[i]);
  }
  char *s = arena_strdup(b.data);
  buf_free(&b);
  if (kept == 1 && s[0] == '(') { /* one conjunction: no parentheses */
    s[strlen(s) - 1] = 0;
    s++;
  }
  return s;
}

/* The dimensions along which the copies' guards differ. */
unsigned guard_dims(Fuse *F, const Ctx *ctx) {
  unsigned m = 0;
  for (int i = 0; i < F->K; i++) {
    Copy c = group_at(F, F->all, i);
    char *g = guard_of(F, ctx, c);
    for (int d = 0; d < 3; d++) {
      if (!(F->all >> d & 1) || (m >> d & 1) || c.r[d] == 0)
        continue;
      Copy z = c;
      z.r[d] = 0;
      char *h = guard_of(F, ctx, z);
      if (!g != !h || (g && strcmp(g, h)))
        m |= 1u << d;
    }
  }
  return m;
}

char *any_of(Fuse *F, const Ctx *ctx) {
  if (F->multi)
    return group_guard(F, ctx, uniform_copy);
  if (ctx->any_true)
    return NULL;
  Buf b = {0};
  for (int r = 0; r < F->K; r++) {
    char *g = guard_of(F, ctx, group_at(F, F->all, r));
    if (!g) {
      buf_free(&b);
      return NULL;
    }
    buf_printf(&b, strstr(g, "&&") ? "%s(%s)" : "%s%s", r ? " || " : "", g);
  }
  char *s = arena_strdup(b.data);
  buf_free(&b);
  return s;
}

void piece(Fuse *F, const char *indent, const char *text) {
  if (!F->first) {
    buf_puts(&F->out, "\n");
    buf_puts(&F->out, indent);
  }
  F->first = false;
  buf_puts(&F->out, text);
}

/* Whether [n->begin, n->end) is exactly one operand of the source text: the
 * token before it is one of `open` and the token after it one of `close`.
 * Then wrapping that text wraps this expression, even when a macro expands
 * inside it (the text is the whole invocation). */
bool text_is_operand(const Source *src, const Node *n, const char *open, const char *close) {
  unsigned p = n->begin;
  while (p > 0 && strchr(" \t\n\r", src->text[p - 1]))
    p--;
  unsigned q = source_skip_space(src, n->end);
  return p > 0 && n->end > n->begin && strchr(open, src->text[p - 1]) && q < src->len && strchr(close, src->text[q]);
}

const char *indent_of(Fuse *F, Node *s) { return F->indent ? F->indent : source_indent(F->src, s->begin); }
