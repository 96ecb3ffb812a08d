/* fuse: rewrites a kernel's body so one thread runs K logical threads.
 *
 * Contract: requires uniform_analyze and a passing legality_check on the
 * kernel; records edits replacing the kernel's body, its signature (block
 * mode: one parameter, the original grid extent) and its prototypes.
 * Statement emission lives here; the copies and their names are in
 * copies.c, the layout of replicated shared memory in replicas.c, the
 * registers of promoted arrays in promote_emit.c (shared types:
 * passes/fuse.h).  Those call nothing in this file.
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

typedef struct {
  Node *region_stmt; /* the predicated `if` that opened this region */
  char **pred;      /* per copy: a guard expression, or NULL for "true" */
  bool any_true;    /* some copy is known to be live here */
  bool live_active; /* copies may have returned: AND their live flags */
  int region;       /* predicate region depth */
} Ctx;

/* ---- copies ---- */

static const Copy uniform_copy = {0};

/* The dimensions along which a node varies. */
static unsigned node_dims(Fuse *F, const Node *n) { return F->multi ? n->vmask : n->varying ? F->all : 0; }

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

static void emit_clones(Fuse *F, EditList *el) {
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

static Site *replace_site(Node *part, const char *text);
static bool text_is_operand(const Source *src, const Node *n, const char *open, const char *close);
static char *render_ex(Fuse *F, Node *root, unsigned b, unsigned e, Copy c, int ret_label, Vec *extra);

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

static void piece(Fuse *F, const char *indent, const char *text);
static const char *indent_of(Fuse *F, Node *s);

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
static void hoist_block_reductions(Fuse *F, Node *s) {
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
static char *render_ex(Fuse *F, Node *root, unsigned b, unsigned e, Copy c, int ret_label, Vec *extra) {
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

static char *render(Fuse *F, Node *n, Copy c) { return render_ex(F, n, n->begin, stmt_end(F->src, n), c, 0, NULL); }

/* Statement `stmt` for copy r with the expression `part` replaced by
 * `text` (which must already be rendered for copy r). */
/* A site replacing the whole of `part` by `text`, ahead of any site inside
 * it (the sites within a replaced range are dropped). */
static Site *replace_site(Node *part, const char *text) {
  Site *site = arena_alloc(sizeof *site);
  site->off = part->begin;
  site->len = part->end - part->begin;
  site->text = (char *)text;
  site->seq = -1; /* before a site of `part` itself at the same offset */
  return site;
}

static char *render_replacing(Fuse *F, Node *stmt, Node *part, const char *text, Copy c) {
  Vec extra = {0};
  vec_push(&extra, replace_site(part, text));
  char *res = render_ex(F, stmt, stmt->begin, stmt_end(F->src, stmt), c, 0, &extra);
  vec_free(&extra);
  return res;
}

/* ---- classification ---- */

static bool is_local_sym(const Sym *s) { return s && (s->kind == SYM_LOCAL || s->kind == SYM_PARAM); }

/* The array a (possibly nested) subscript indexes: `A` of `A[i][j]`. */
static Node *subscript_base(Node *n) {
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

static bool index_varying(Node *sub) {
  Node *n = sub;
  while (n && n->kind == N_SUBSCRIPT) {
    if (n->nkid > 1 && n->kid[1]->varying)
      return true;
    n = node_strip(n->kid[0]);
  }
  return false;
}

typedef struct {
  bool effects;       /* stores to memory, effectful or user calls */
  bool unsafe_load;   /* a load whose address depends on the copy */
  bool any_load;
  bool has_loop;
  Vec written;        /* Sym*: locals written */
} Facts;

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
static Facts facts_of(Fuse *F, Node *n) {
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

static bool facts_need_guard(Fuse *F, const Facts *f, const Ctx *ctx) {
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
static char *guard_of(Fuse *F, const Ctx *ctx, Copy c) {
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
static char *group_guard(Fuse *F, const Ctx *ctx, Copy g) {
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
static unsigned guard_dims(Fuse *F, const Ctx *ctx) {
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

static char *any_of(Fuse *F, const Ctx *ctx) {
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

/* ---- output ---- */

static void piece(Fuse *F, const char *indent, const char *text) {
  if (!F->first) {
    buf_puts(&F->out, "\n");
    buf_puts(&F->out, indent);
  }
  F->first = false;
  buf_puts(&F->out, text);
}

static void gap(Fuse *F, unsigned b, unsigned e) {
  if (e > b)
    buf_add(&F->out, F->src->text + b, e - b);
  F->first = true;
}

static char *guarded(const char *g, const char *text, const char *indent) {
  if (!g)
    return (char *)text;
  if (text[0] == '#') /* a statement led by a pragma line */
    return arena_printf("if (%s) {\n%s%s\n%s}", g, indent, text, indent);
  return arena_printf("if (%s) %s", g, text);
}

static void emit_stmt(Fuse *F, Node *s, Ctx *ctx);

static const char *indent_of(Fuse *F, Node *s) { return F->indent ? F->indent : source_indent(F->src, s->begin); }

/* A body of a control statement: a compound as is, else braced. */
static void emit_body(Fuse *F, Node *body, Ctx *ctx, const char *outer_indent) {
  F->first = true; /* the body follows its header on the same line */
  if (body->kind == N_COMPOUND) {
    emit_stmt(F, body, ctx);
    return;
  }
  const char *head = F->body_head;
  F->body_head = NULL;
  /* `for (...)\n  stmt;` becomes `for (...) {\n  copies\n}`. */
  while (F->out.len && (F->out.data[F->out.len - 1] == ' ' || F->out.data[F->out.len - 1] == '\n' ||
                        F->out.data[F->out.len - 1] == '\t'))
    F->out.data[--F->out.len] = 0;
  const char *nl = strrchr(F->out.data ? F->out.data : "", '\n');
  if (strstr(nl ? nl : (F->out.data ? F->out.data : ""), "//"))
    buf_printf(&F->out, "\n%s", outer_indent); /* a line comment ends the header */
  buf_puts(&F->out, " {\n");
  char *ind = arena_printf("%s  ", outer_indent);
  buf_puts(&F->out, ind);
  F->first = true;
  const char *saved = F->indent;
  F->indent = ind;
  if (head) {
    buf_puts(&F->out, head);
    F->first = false;
  }
  emit_stmt(F, body, ctx);
  F->indent = saved;
  buf_printf(&F->out, "\n%s}", outer_indent);
}

static void after_vreturn(Node *s, Ctx *ctx) {
  if (s->has_vreturn) {
    ctx->live_active = true;
    ctx->any_true = false;
  }
}

static bool contains_kind(const Node *n, NodeKind k) {
  if (n->kind == k)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (contains_kind(n->kid[i], k))
      return true;
  return false;
}

/* Several dimensions: whatever a statement emitted once per group of
 * copies along mask writes and declares outside it must have a copy per
 * group at least (uniform.c forces it); checked here, so that a gap is an
 * internal error and not a variable written several times. */
static void check_writes(Fuse *F, Node *s, unsigned mask) {
  if (!F->multi || !mask)
    return;
  Effects e = {0};
  effects_of(s, &e);
  for (int i = 0; i < e.writes.len; i++) {
    Sym *w = e.writes.items[i];
    bool inside = w->decl_off != ~0u && s->begin <= w->decl_off && w->decl_off < s->end;
    if ((w->kind == SYM_LOCAL || w->kind == SYM_PARAM) && !inside && (mask & ~sym_dims(F, w))) {
      F->failed = true;
      error_at(s->begin, "internal error: '%s' is written by code emitted per copy along more dimensions than it "
                         "varies along", w->name);
    }
  }
  effects_free(&e);
}

/* A varying loop or switch: K whole copies. */
static void emit_replicated(Fuse *F, Node *s, Ctx *ctx) {
  const char *indent = indent_of(F, s);
  int label = contains_kind(s, N_RETURN) ? ++F->label_seq : 0;
  if (s->has_vreturn)
    ctx->live_active = true;
  unsigned m = replicated_copy_mask(F->k, s);
  check_writes(F, s, m);
  for (int i = 0; i < ngroups(F, m); i++) {
    Copy c = group_at(F, m, i);
    char *text = render_ex(F, s, s->begin, stmt_end(F->src, s), c, label, NULL);
    piece(F, indent, guarded(group_guard(F, ctx, c), text, indent));
    if (label)
      piece(F, indent, arena_printf("__tf_ret%d%s:;", label, copy_suffix(F, m, c)));
  }
  after_vreturn(s, ctx);
}

/* The kernel's statements from body->kid[from] on, after a return that
 * only some copies take (Kernel.copy_tail, legality.c): each copy's whole,
 * under its guard, each a return of its own leaving that copy's alone.
 * What they write and do not declare varies (uniform.c: a write after
 * such a return is the copy's), checked here. */
static void emit_copy_tail(Fuse *F, Node *body, int from, Ctx *ctx) {
  Node *first = body->kid[from];
  const char *indent = indent_of(F, first);
  unsigned b = first->begin, e = stmt_end(F->src, body->kid[body->nkid - 1]);
  int label = 0;
  for (int i = from; i < body->nkid; i++) {
    Effects fx = {0};
    effects_of(body->kid[i], &fx);
    for (int j = 0; j < fx.writes.len; j++) {
      Sym *w = fx.writes.items[j];
      if ((w->kind == SYM_LOCAL || w->kind == SYM_PARAM || w->kind == SYM_SHARED) &&
          (w->decl_off == ~0u || w->decl_off < b) &&
          sym_dims(F, w) != F->all) {
        F->failed = true;
        error_at(body->kid[i]->begin, "internal error: '%s', which the copies share, is written in code emitted "
                 "per copy", w->name);
      }
    }
    effects_free(&fx);
    if (!label && contains_kind(body->kid[i], N_RETURN))
      label = ++F->label_seq;
  }
  for (int i = 0; i < ngroups(F, F->all); i++) {
    Copy c = group_at(F, F->all, i);
    char *text = render_ex(F, body, b, e, c, label, NULL);
    piece(F, indent, guarded(group_guard(F, ctx, c), arena_printf("{\n%s%s\n%s}", indent, text, indent), indent));
    if (label)
      piece(F, indent, arena_printf("__tf_ret%d%s:;", label, copy_suffix(F, F->all, c)));
  }
}

/* ---- declarations ---- */

/* Whether the text [b, e) holds a comma outside parentheses, brackets and
 * braces (`f<A, B>(x)`): the preprocessor would split a macro's argument
 * there. */
static bool comma_outside_parens(const Source *src, unsigned b, unsigned e) {
  int depth = 0;
  for (unsigned i = b; i < e && i < src->len; i++) {
    char c = src->text[i];
    if (c == '(' || c == '[' || c == '{')
      depth++;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0)
      depth--;
    else if (c == ',' && depth == 0)
      return true;
  }
  return false;
}

/* Inserts `TFUSE_GUARD(g, ` ... `)` around the text [b, e), parenthesized
 * where a comma would split the macro's argument. */
static void guard_text(const Source *src, unsigned b, unsigned e, const char *g, Vec *extra) {
  Site *a = arena_alloc(sizeof *a), *z = arena_alloc(sizeof *z);
  bool paren = comma_outside_parens(src, b, e);
  a->off = b;
  a->text = arena_printf("TFUSE_GUARD(%s, %s", g, paren ? "(" : "");
  a->seq = -2; /* after a replacement ending here, before one starting here */
  z->off = e;
  z->text = paren ? "))" : ")";
  z->seq = -1;
  vec_push(extra, a);
  vec_push(extra, z);
}

/* Whether [n->begin, n->end) is exactly one operand of the source text: the
 * token before it is one of `open` and the token after it one of `close`.
 * Then wrapping that text wraps this expression, even when a macro expands
 * inside it (the text is the whole invocation). */
static bool text_is_operand(const Source *src, const Node *n, const char *open, const char *close) {
  unsigned p = n->begin;
  while (p > 0 && strchr(" \t\n\r", src->text[p - 1]))
    p--;
  unsigned q = source_skip_space(src, n->end);
  return p > 0 && n->end > n->begin && strchr(open, src->text[p - 1]) && q < src->len && strchr(close, src->text[q]);
}

static bool guard_init_refused(Fuse *F, Node *var, const char *why) {
  if (!var->sym->reported)
    error_at(var->loc, "cannot guard the initializer of '%s' for copies that may be inactive: %s; "
                       "assign it in a separate statement", var->sym->name, why);
  var->sym->reported = true;
  F->failed = true;
  return false;
}

/* Why n's text cannot be wrapped (`g ? (text) : 0`, TFUSE_GUARD(g, text)):
 * a macro used in it expands past the expression (macros.c expands such
 * uses where it can); NULL if it can. */
static const char *wrap_refusal(Fuse *F, const Node *n) {
  const char *m = macro_escaping_expression(F->u, n->begin, n->end);
  return m ? arena_printf("the expansion of macro '%s' does not stay inside the expression", m) : NULL;
}

/* The elements of a braced list, each guarded where it needs a guard. */
static bool guard_list(Fuse *F, Node *var, Node *list, const char *g, const Ctx *ctx, Vec *extra) {
  for (int i = 0; i < list->nkid; i++) {
    Node *el = list->kid[i];
    if (el->end <= el->begin)
      continue; /* an implicit element: no text */
    if (el->kind == N_INIT_LIST) {
      if (!guard_list(F, var, el, g, ctx, extra))
        return false;
      continue;
    }
    Facts f = facts_of(F, el);
    if (!facts_need_guard(F, &f, ctx))
      continue;
    const char *why = wrap_refusal(F, el);
    if (why)
      return guard_init_refused(F, var, why);
    if (!text_is_operand(F->src, el, "{,", ",}"))
      return guard_init_refused(F, var, "an element of its braced list is not separate in the text");
    guard_text(F->src, el->begin, el->end, g, extra);
  }
  return true;
}

/* `T v(args)`: the constructor runs for every copy, so it must have no
 * effect beyond the object; its arguments are guarded one by one. */
static bool guard_ctor_args(Fuse *F, Node *var, Node *call, const char *g, const Ctx *ctx, Vec *extra) {
  Effects e = {0};
  effects_of_call(call, &e);
  bool beyond = effects_beyond_locals(&e);
  effects_free(&e);
  if (beyond)
    return guard_init_refused(F, var, "its constructor has effects beyond the object");
  int a = 0;
  for (int i = 0; i < call->nkid; i++) {
    Node *arg = call->kid[i];
    if (arg->kind == N_TYPE_REF || arg->kind == N_OTHER)
      continue;
    int pos = a++;
    Facts f = facts_of(F, arg);
    if (!facts_need_guard(F, &f, ctx))
      continue;
    if (!call->sym || (pos < 32 && (call->sym->ref_params >> pos) & 1u) || pos >= 32)
      return guard_init_refused(F, var, "a constructor argument binds to a non-const reference");
    const char *why = wrap_refusal(F, arg);
    if (why)
      return guard_init_refused(F, var, why);
    if (!text_is_operand(F->src, arg, "(,", ",)"))
      return guard_init_refused(F, var, "a constructor argument is not separate in the text");
    guard_text(F->src, arg->begin, arg->end, g, extra);
  }
  return true;
}

/* Whether a construction is written out (`T(args)`), not implied by a copy
 * or conversion (`int4 v = p[i];`, whose text is just the argument's). */
static bool written_call(const Node *call) {
  for (int i = 0; i < call->nkid; i++) {
    const Node *a = call->kid[i];
    if (a->kind != N_TYPE_REF && a->kind != N_OTHER && a->end > a->begin)
      return call->begin < a->begin;
  }
  return true;
}

/* Guards the initializer of `var` by predicate g: the whole expression after
 * `=` or inside `( )`; each element of a braced list; each argument of a
 * constructor written `T v(args)`. The guarded parts run only when g holds;
 * otherwise they yield a zero of their type (TFUSE_GUARD). */
static bool guard_init(Fuse *F, Node *var, const char *g, const Ctx *ctx, Vec *extra) {
  Node *init = var_init(var);
  if (!init || !g)
    return true;
  Node *bare = node_strip(init);
  if (var->in_macro)
    return guard_init_refused(F, var, "the declaration is inside a macro expansion");
  if (bare->kind == N_INIT_LIST)
    return guard_list(F, var, bare, g, ctx, extra);
  if (bare->kind == N_CALL && bare->begin <= var->loc) /* `T v(args)`: the construction spans the name */
    return guard_ctor_args(F, var, bare, g, ctx, extra);
  if (bare->kind == N_CALL && (bare->sym ? bare->sym->is_ctor : call_is_construct(bare)) && written_call(bare))
    return guard_ctor_args(F, var, bare, g, ctx, extra); /* `T v = T(args)`: T may have no zero */
  const char *why = wrap_refusal(F, init);
  if (why)
    return guard_init_refused(F, var, why);
  if (!text_is_operand(F->src, init, "=(", ";,)"))
    return guard_init_refused(F, var, "tfuse cannot find its text");
  guard_text(F->src, init->begin, init->end, g, extra);
  return true;
}

/* Wraps the initializer of `var` for copy r (r < 0: the once-emitted
 * uniform declarator) in a guard when an inactive copy could reach memory. */
/* Whether n, whole, is replaced by a site of extra (a warp call taken out
 * into a temporary). */
static bool replaced_whole(const Vec *extra, const Node *n) {
  for (int i = 0; extra && i < extra->len; i++) {
    const Site *x = extra->items[i];
    if (x->off == n->begin && x->len == n->end - n->begin && x->seq == -1)
      return true;
  }
  return false;
}

static void guard_declarator(Fuse *F, Node *var, Copy c, const Ctx *ctx, Vec *extra) {
  /* A cooperative group (`auto part = cg::binary_partition(warp, v);`) has
   * no value-initialized form for a dead copy's TFUSE_GUARD: when its
   * initializer is a warp call taken out into a temporary (emit_warp_hoists:
   * every lane makes it, its loads guarded), the copy takes the temporary
   * unguarded.  A dead copy's group is read only by that copy's statements,
   * which are guarded or pure. */
  Node *init = var_init(var) ? node_strip(var_init(var)) : NULL;
  bool group = init && init->cg_group != CG_NONE;
  while (group && !replaced_whole(extra, init) && node_is_value_wrapper(init) && init->nkid)
    init = node_strip(init->kid[init->nkid - 1]); /* a copy of the call's value */
  if (group && replaced_whole(extra, init))
    return;
  /* The variable itself is not among the writes (effects.c counts stores,
   * not definitions); what its initializer writes is (`int a = c++;`). */
  Facts f = facts_of(F, var_init(var));
  if (c.mask ? facts_need_guard(F, &f, ctx) : (f.any_load && !ctx->any_true))
    guard_init(F, var, c.mask ? group_guard(F, ctx, c) : any_of(F, ctx), ctx, extra);
}

static char *decl_prefix(Fuse *F, Node *stmt, Node *first, unsigned *prefix_end) {
  const char *t = F->src->text;
  unsigned p = first->loc;
  while (p > stmt->begin && (t[p - 1] == ' ' || t[p - 1] == '\t' || t[p - 1] == '\n' || t[p - 1] == '*' ||
                             t[p - 1] == '&'))
    p--;
  *prefix_end = p;
  return arena_strndup(t + stmt->begin, p - stmt->begin);
}

static void emit_decl_stmt_vars(Fuse *F, Node *s, Ctx *ctx);
static bool emit_warp_hoists(Fuse *F, Node *s, Node *e, Copy c, const char *g, const Ctx *ctx, Vec *extra);

/* A declaration, then the registers of the promoted arrays it declares. */
static void emit_decl_stmt(Fuse *F, Node *s, Ctx *ctx) {
  if (s->nkid == 1 && s->kid[0]->kind == N_VAR && is_dyn_replica(s->kid[0]->sym)) {
    piece(F, indent_of(F, s), arena_strndup(F->src->text + s->begin, stmt_end(F->src, s) - s->begin));
    piece(F, indent_of(F, s), dyn_shared_copies(F, s->kid[0]->sym, indent_of(F, s)));
    F->k->dyn_shared = true;
    return;
  }
  if (s->nkid == 1 && s->kid[0]->kind == N_VAR && s->kid[0]->sym && s->kid[0]->sym->ilv) {
    s->kid[0]->sym->region = ctx->region;
    piece(F, indent_of(F, s), interleaved_decl(F, s));
  } else {
    emit_decl_stmt_vars(F, s, ctx);
  }
  for (int i = 0; i < s->nkid; i++)
    if (s->kid[i]->kind == N_VAR && s->kid[i]->sym && s->kid[i]->sym->promoted) {
      char *decl = promo_decl(F, s->kid[i]->sym);
      if (decl)
        piece(F, indent_of(F, s), decl);
    }
  for (int i = 0; i < s->nkid; i++)
    if (F->probe_anchor && !F->probe_placed && s->kid[i]->kind == N_VAR && s->kid[i]->sym == F->probe_anchor) {
      piece(F, indent_of(F, s), F->probe);
      F->probe_placed = true;
    }
}

static void emit_decl_stmt_vars(Fuse *F, Node *s, Ctx *ctx) {
  const char *indent = indent_of(F, s);
  Vec vars = {0};
  bool same = true; /* every declarator varies along the same dimensions (one dimension: all or none vary) */
  for (int i = 0; i < s->nkid; i++)
    if (s->kid[i]->kind == N_VAR) {
      vec_push(&vars, s->kid[i]);
      same &= sym_dims(F, s->kid[i]->sym) == sym_dims(F, ((Node *)vars.items[0])->sym);
      s->kid[i]->sym->region = ctx->region;
      Node *init = var_init(s->kid[i]);
      if (init)
        check_writes(F, init, sym_dims(F, s->kid[i]->sym));
    }
  unsigned end = stmt_end(F->src, s);

  if (same) {
    unsigned m = vars.len ? sym_dims(F, ((Node *)vars.items[0])->sym) : 0;
    if (m)
      hoist_block_reductions(F, s);
    for (int i = 0; i < ngroups(F, m); i++) {
      Copy c = group_at(F, m, i);
      Vec extra = {0};
      for (int j = 0; j < vars.len; j++) {
        Node *v = vars.items[j];
        if (c.mask)
          emit_warp_hoists(F, s, var_init(v), c, group_guard(F, ctx, c), ctx, &extra);
        guard_declarator(F, v, c, ctx, &extra);
      }
      piece(F, indent, render_ex(F, s, s->begin, end, c, 0, &extra));
      vec_free(&extra);
    }
    vec_free(&vars);
    return;
  }

  /* Mixed: split `T a = .., b = ..;` into one statement per declarator. */
  unsigned prefix_end;
  char *prefix = decl_prefix(F, s, vars.items[0], &prefix_end);
  unsigned from = source_skip_space(F->src, prefix_end);
  for (int i = 0; i < vars.len; i++) {
    Node *v = vars.items[i];
    if (i > 0) {
      unsigned c = source_skip_space(F->src, ((Node *)vars.items[i - 1])->end);
      from = c < F->src->len && F->src->text[c] == ',' ? c + 1 : c;
      from = source_skip_space(F->src, from);
    }
    unsigned m = sym_dims(F, v->sym);
    for (int g = 0; g < ngroups(F, m); g++) {
      Copy c = group_at(F, m, g);
      Vec extra = {0};
      guard_declarator(F, v, c, ctx, &extra);
      char *text = render_ex(F, v, from, v->end, c, 0, &extra);
      piece(F, indent, arena_printf("%s %s;", prefix, text));
      vec_free(&extra);
    }
  }
  vec_free(&vars);
}

/* ---- statements ---- */

/* ---- a varying if/else that assigns one place: a select ---- */

static Node *single_stmt(Node *n) {
  if (n && n->kind == N_COMPOUND)
    return n->nkid == 1 ? n->kid[0] : NULL;
  return n;
}

/* The expression as written, below the implicit conversion to the
 * assigned type (same extent, one child). */
static Node *as_written(Node *n) {
  while (n->kind == N_UNEXPOSED && n->nkid == 1 && n->kid[0]->begin == n->begin && n->kid[0]->end == n->end)
    n = n->kid[0];
  return n;
}


/* `if (c) L = e1; else L = e2;` with one side-effect-free L and e1, e2 of
 * one arithmetic type is `L = c ? e1 : e2;` (C++17 evaluates c, one of
 * e1/e2, then L, either way).  Emitted per copy it needs no predicates and
 * no branches: Gauss-Jordan's pivot-row/other-row update. */
static bool emit_select(Fuse *F, Node *s, Ctx *ctx) {
  Node *a = single_stmt(s->then), *b = single_stmt(s->els);
  if (!a || !b || s->has_vreturn || s->has_init_stmt || a->kind != N_ASSIGN || b->kind != N_ASSIGN ||
      a->op != OP_ASSIGN || b->op != OP_ASSIGN || a->nkid != 2 || b->nkid != 2 || a->in_macro || b->in_macro)
    return false;
  Node *e1 = as_written(a->kid[1]), *e2 = as_written(b->kid[1]);
  if (!node_same_text(F->src, a->kid[0], b->kid[0]) || node_has_side_effects(a->kid[0]) || node_has_side_effects(s->cond) ||
      !e1->type_arith || e1->type_arith != e2->type_arith || node_has_side_effects(e1) || node_has_side_effects(e2) ||
      wrap_refusal(F, e1) || wrap_refusal(F, e2))
    return false;
  const char *indent = indent_of(F, s);
  Facts f = facts_of(F, s);
  bool need = facts_need_guard(F, &f, ctx);
  unsigned m = node_dims(F, s);
  check_writes(F, s, m);
  for (int i = 0; i < ngroups(F, m); i++) {
    Copy r = group_at(F, m, i);
    char *c = render_ex(F, s->cond, s->cond->begin, s->cond->end, r, 0, NULL);
    char *x = render_ex(F, e1, e1->begin, e1->end, r, 0, NULL);
    char *y = render_ex(F, e2, e2->begin, e2->end, r, 0, NULL);
    char *text = render_replacing(F, a, e1, arena_printf("(%s) ? (%s) : (%s)", c, x, y), r);
    piece(F, indent, guarded(need ? group_guard(F, ctx, r) : NULL, text, indent));
  }
  return true;
}

/* ---- uniform loads hoisted out of per-copy statements ---- */

/* In a statement emitted per copy that stores to memory, nvcc must reload
 * a uniform load after every copy's store, since the store might reach its
 * address: Gauss-Jordan's `A[y][x] -= A[y][i] * A[i][x]` read A[i][x]
 * K times.  Loading it once, before copy 0, into a temporary (Volkov's
 * `Aix`) is one of the interleavings the original allows: between two
 * barriers the logical threads are unordered, so "every copy loads, then
 * every copy runs its statement" is an execution of the original, provided
 * that within one copy the load still precedes that copy's own store and
 * follows its earlier statements.  So the statement must be one assignment
 * `L op= R` whose operands have no side effects (R, and L's address, are
 * evaluated before the store), the load must be evaluated whenever the
 * statement is (not under `?:`, `&&`, `||`), and some copy must run the
 * statement (the temporary is loaded only where a copy is known live).
 * Only non-volatile subscripts of arithmetic type, of a shared array that
 * is one per block or of memory through a pointer, are hoisted; one
 * temporary per distinct text. */
typedef struct {
  Node *load;
  char *name;
  bool first; /* the first load of its text: declares the temporary */
} Hoist;

static bool hoistable_load(Fuse *F, Node *n) {
  if (n->kind != N_SUBSCRIPT || n->in_macro || n->promo || node_dims(F, n) || !arith_type_spelling(n->type_arith) ||
      node_has_side_effects(n))
    return false;
  /* The array or pointer as declared, with no cast on the way (a cast may
   * add `volatile`): `A[i][j]`, `p[i]`. */
  Node *base = n;
  int rank = 0;
  while (base && base->kind == N_SUBSCRIPT) {
    base = base->kid[0];
    rank++;
    while (base && (base->kind == N_PAREN || base->kind == N_UNEXPOSED) && base->nkid == 1)
      base = base->kid[0];
  }
  if (!base || base->kind != N_DECL_REF || !base->sym || base->sym->is_volatile || sym_dims(F, base->sym))
    return false;
  Sym *s = base->sym;
  if (s->kind == SYM_SHARED)
    return s->is_array && rank == s->rank;
  return s->is_pointer && rank == 1 && (s->kind == SYM_PARAM || s->kind == SYM_LOCAL);
}

static void find_hoists(Fuse *F, Node *n, Vec *out) {
  if (n->kind == N_COND || (n->kind == N_BINOP && (n->op == OP_LAND || n->op == OP_LOR)))
    return;
  if (hoistable_load(F, n)) {
    Hoist *h = arena_alloc(sizeof *h);
    h->load = n;
    for (int i = 0; i < out->len && !h->name; i++)
      if (node_same_text(F->src, ((Hoist *)out->items[i])->load, n))
        h->name = ((Hoist *)out->items[i])->name;
    h->first = !h->name;
    if (h->first)
      h->name = arena_printf("__tf_u%d", ++F->hoist_seq);
    vec_push(out, h);
    return;
  }
  for (int i = 0; i < n->nkid; i++)
    find_hoists(F, n->kid[i], out);
}

/* The uniform loads of statement s (emitted per copy) to load once, and
 * their declarations emitted; `extra` gets the sites naming them. */
static void emit_hoists(Fuse *F, Node *s, Ctx *ctx, Vec *extra) {
  Node *n = node_strip(s);
  if (n->kind != N_ASSIGN || n->nkid != 2 || n->in_macro || node_has_side_effects(n->kid[0]) ||
      node_has_side_effects(n->kid[1]) || node_store_target(n->kid[0]) || any_of(F, ctx))
    return;
  Vec found = {0};
  Node *lhs = node_strip(n->kid[0]);
  for (int i = 0; i < lhs->nkid; i++) /* the target's address, not the target */
    find_hoists(F, lhs->kid[i], &found);
  find_hoists(F, n->kid[1], &found);
  const char *indent = indent_of(F, s);
  for (int i = 0; i < found.len; i++) {
    Hoist *h = found.items[i];
    if (h->first) {
      char *load = render_ex(F, h->load, h->load->begin, h->load->end, uniform_copy, 0, NULL);
      piece(F, indent, arena_printf("const %s %s = %s; /* tfuse: the same for every copy, loaded once */",
                                    arith_type_spelling(h->load->type_arith), h->name, load));
    }
    vec_push(extra, replace_site(h->load, h->name));
  }
  vec_free(&found);
}

/* ---- warp-synchronous calls in block mode ----
 *
 * Block mode keeps warps whole, and a copy's guard that says only "this
 * copy's logical block is live" (`__tf_ok_r`, conjunctions and
 * disjunctions of such flags) is the same in every thread of the block.
 * A warp-synchronous call under it (`if (__tf_ok_3) s_3 += __shfl_down_sync(
 * m, s_3, o);`, `TFUSE_GUARD(__tf_ok_3, __reduce_add_sync(m, v_3))`) is then
 * executed by every lane of the warp or by none, as in the original; but
 * nvcc 13's optimizing ptxas mishandles that guarded form (wrong sums from
 * __reduce_add_sync at K = 8).  So the call is evaluated unguarded, by every
 * lane, into a temporary, each argument that differs from copy 0's
 * selected (a dead copy takes copy 0's, which is live: it loads, in its
 * arguments or in a helper's code through a pointer, only what copy 0
 * loads), and the statement, still guarded, reads the temporary:
 *
 *   const auto __tf_w4 = __reduce_add_sync(0xffffffffu, ((__tf_ok_3) ? (v_3) : (v_0)));
 *   int s_3 = TFUSE_GUARD(__tf_ok_3, __tf_w4);
 *
 * A dead copy's call computes a value nobody reads.  Only calls that return
 * a value and write through no argument (shuffles, votes, matches,
 * reductions, and helpers that only compute with them, such as
 * cuda-samples' warpReduceSum: effects.c fn_is_warp_value) or return
 * nothing and write nothing (__syncwarp), with side-effect-free arguments,
 * in a statement whose only other effect is its own store, outside `?:`,
 * `&&` and `||`. */

static bool guard_is_block_live(const char *g) {
  if (!g)
    return false;
  for (const char *p = g; *p;) {
    if (!strncmp(p, "__tf_ok_", 8)) {
      for (p += 8; ident_char(*p); p++)
        ;
    } else if (*p == ' ' || *p == '(' || *p == ')') {
      p++;
    } else if (!strncmp(p, "&&", 2) || !strncmp(p, "||", 2)) {
      p += 2;
    } else {
      return false;
    }
  }
  return true;
}

static bool is_warp_fn(const Sym *fn) {
  return fn && ((fn_class(fn) == FN_WARP && !fn->out_params) || fn_is_warp_value(fn));
}

/* A warp intrinsic that writes through pointer arguments (`&pred` of
 * __match_all_sync), each the address of a local: taken out of the guard,
 * a dead copy writes only its own local. */
static bool warp_call_writes_locals(const Node *n) {
  if (!n->sym || fn_class(n->sym) != FN_WARP || !n->sym->out_params)
    return false;
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(n, &obj, &obj_ptr, &args);
  bool ok = !obj;
  for (int i = 0; ok && i < args.len; i++) {
    if (i >= 32 || !(n->sym->out_params >> i & 1))
      continue;
    Node *a = node_strip(args.items[i]);
    Sym *t = a->kind == N_UNOP && a->op == OP_ADDR ? node_store_target(a->kid[0]) : NULL;
    ok = t && t->kind == SYM_LOCAL;
  }
  vec_free(&args);
  return ok;
}

static bool is_warp_call(const Node *n) {
  if (n->kind != N_CALL || n->in_macro || n->end <= n->begin || node_is_barrier(n))
    return false;
  if (n->sym)
    return is_warp_fn(n->sym) || warp_call_writes_locals(n) || call_is_warp_value(n);
  bool all = n->ncand > 0;
  for (int i = 0; all && i < n->ncand; i++)
    all = is_warp_fn(n->cand[i]);
  return all || call_is_warp_value(n);
}

/* Whether evaluating a warp call's argument n has a side effect: a call,
 * but for cooperative groups' values (a handle, a query, `cg::plus<T>()`),
 * an assignment, an increment. */
static bool arg_has_effects(const Node *n) {
  if (n->kind == N_CALL && !(n->sym && sym_is_cooperative_groups(n->sym) && fn_class(n->sym) == FN_PURE) &&
      !n->cg_construct && !call_is_value(n))
    return true;
  if (n->kind == N_ASSIGN || node_is_incdec(n))
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (arg_has_effects(n->kid[i]))
      return true;
  return false;
}

static bool holds_call(const Node *n) {
  if (n->kind == N_CALL && !(n->sym && sym_is_cooperative_groups(n->sym)) && !n->cg_construct)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (holds_call(n->kid[i]))
      return true;
  return false;
}

/* The warp calls of n; false if one cannot be taken out (under `?:`, `&&`,
 * `||`, or with an argument that has side effects). */
static bool find_warp_calls(Node *n, Vec *out, bool under_cond) {
  if (is_warp_call(n)) {
    if (under_cond)
      return false;
    for (int i = 0; i < n->nkid; i++)
      if (arg_has_effects(n->kid[i]))
        return false;
    vec_push(out, n);
    return true;
  }
  bool cond = under_cond || n->kind == N_COND || n->kind == N_LAMBDA ||
              (n->kind == N_BINOP && (n->op == OP_LAND || n->op == OP_LOR));
  for (int i = 0; i < n->nkid; i++)
    if (!find_warp_calls(n->kid[i], out, cond))
      return false;
  return true;
}

/* `x = v`, `x += v` on a class or dependent type: a call of an assignment
 * operator whose target is a local. */
static bool is_local_assign_call(const Node *n) {
  const char *nm = n->kind == N_CALL ? (n->sym ? n->sym->name : n->spelling) : NULL;
  size_t len = nm ? strlen(nm) : 0;
  if (len < 9 || strncmp(nm, "operator", 8) || nm[len - 1] != '=' || strchr("=!<>", nm[len - 2]))
    return false; /* not ==, !=, <=, >= (nor <<=, >>=: left guarded) */
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(n, &obj, &obj_ptr, &args);
  Node *target = obj && !obj_ptr ? obj : !obj && args.len ? args.items[0] : NULL;
  vec_free(&args);
  return target && node_store_target(target);
}

/* Whether n has a side effect other than the warp calls in `warps` (and,
 * for the root, its own store). */
static bool effects_besides(const Node *n, const Vec *warps, bool root) {
  for (int i = 0; i < warps->len; i++)
    if (warps->items[i] == n)
      return false;
  if (root && is_local_assign_call(n)) {
    for (int i = 0; i < n->nkid; i++) /* its operands; the operator's name has no effect */
      if (effects_besides(n->kid[i], warps, false))
        return true;
    return false;
  }
  if (n->kind == N_CALL || node_is_incdec(n) || (n->kind == N_ASSIGN && !root))
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (effects_besides(n->kid[i], warps, root && (n->kind == N_PAREN || n->kind == N_UNEXPOSED)))
      return true;
  return false;
}

/* Whether a call may read memory through a pointer it is given in its own
 * code: a helper (or a dependent call that may be one), not CUDA's
 * intrinsics of the table nor cooperative groups' collectives. */
static bool call_may_read_through(const Node *call) {
  int count = call->sym ? 1 : call->ncand;
  if (!count)
    return true;
  for (int i = 0; i < count; i++) {
    const Sym *fn = call->sym ? call->sym : call->cand[i];
    if (!fn || !(fn_is_known(fn) || sym_is_cooperative_groups(fn)))
      return true;
  }
  return false;
}

/* For copy c of the expression statement or initializer `e` (of statement
 * s), emitted under guard g: the temporaries of its warp calls, emitted
 * before it, and in `extra` the sites that name them.  Returns whether e is
 * the call itself with no value used (`__syncwarp(m);`): it is then emitted
 * unguarded, its arguments guarded. */
static bool emit_warp_hoists(Fuse *F, Node *s, Node *e, Copy c, const char *g, const Ctx *ctx, Vec *extra) {
  if (F->k->p.mode != MODE_BLOCK || !e || !guard_is_block_live(g))
    return false;
  Vec calls = {0};
  Node *bare = node_strip(e);
  bool whole = s == e && bare->kind == N_CALL && is_warp_call(bare);
  if (!find_warp_calls(e, &calls, false) || !calls.len || effects_besides(e, &calls, s == e)) {
    vec_free(&calls);
    return false;
  }
  /* A dead copy's call gets copy 0's argument wherever its own differs
   * and may load: an argument that loads, and one not of arithmetic type
   * given to a helper, whose code may load through it (`wsum(__tf_ok_1 ?
   * (in + (blockIdx.x * 2 + 1) * 32) : (in + (blockIdx.x * 2) * 32))`).
   * Every lane still takes part, but a dead copy loads only what copy 0,
   * live wherever the guard says only "this copy's block is live", loads. */
  Copy c0 = {.mask = c.mask};
  Vec argsites = {0};
  for (int i = 0; i < calls.len; i++) {
    Node *call = calls.items[i], *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(call, &obj, &obj_ptr, &args);
    for (int j = 0; j < args.len; j++) {
      Node *a = args.items[j];
      Facts f = facts_of(F, a);
      bool through = !a->type_arith && call_may_read_through(call);
      if (a->end <= a->begin || (!facts_need_guard(F, &f, ctx) && !holds_call(a) && !through))
        continue;
      char *own = render_ex(F, a, a->begin, a->end, c, 0, NULL), *live = render_ex(F, a, a->begin, a->end, c0, 0, NULL);
      if (!strcmp(own, live))
        continue;
      if (!text_is_operand(F->src, a, "(,", ",)")) {
        vec_free(&args);
        vec_free(&calls);
        vec_free(&argsites);
        return false;
      }
      vec_push(&argsites, replace_site(a, arena_printf("((%s) ? (%s) : (%s))", g, own, live)));
    }
    vec_free(&args);
  }
  const char *indent = indent_of(F, s);
  if (whole) {
    piece(F, indent, render_ex(F, s, s->begin, stmt_end(F->src, s), c, 0, &argsites));
    vec_free(&calls);
    vec_free(&argsites);
    return true;
  }
  for (int i = 0; i < calls.len; i++) {
    Node *call = calls.items[i];
    char *name = arena_printf("__tf_w%d", ++F->hoist_seq);
    piece(F, indent, arena_printf("const auto %s = %s; /* tfuse: warp-synchronous, every lane */", name,
                                  render_ex(F, call, call->begin, call->end, c, 0, &argsites)));
    vec_push(extra, replace_site(call, name));
  }
  vec_free(&calls);
  vec_free(&argsites);
  return false;
}

/* A dead copy (block mode past the grid, or returned) that stores into its
 * own replica of a shared array changes nothing another copy sees: only
 * copy r reads `Bs_r`.  So outside predicated regions, where the guard
 * only says "copy r is live", `if (__tf_ok_r) Bs_r[ty][tx] = e;` becomes
 * `Bs_r[ty][tx] = __tf_ok_r ? (e) : 0;`: e's loads stay guarded, but the K
 * copies' loads are no longer split by branches and can overlap (matmul
 * block x K=8: 12.5 ms -> 11.3 ms on the H200).  The index must be the
 * same in every copy and side-effect free, so a dead copy stores where
 * copy 0, which is live, does. */
static bool emit_replica_store(Fuse *F, Node *s, Ctx *ctx, unsigned m) {
  Node *n = node_strip(s);
  /* Not after a varying return: a returned thread's logical block lives
   * on, and its other threads read the element this thread leaves as is. */
  if (ctx->region || ctx->live_active || n->kind != N_ASSIGN || n->op != OP_ASSIGN || n->nkid != 2 || n->in_macro)
    return false;
  Node *lhs = node_strip(n->kid[0]), *base = subscript_base(lhs);
  if (lhs->kind != N_SUBSCRIPT || lhs->promo || !base || base->kind != N_DECL_REF || !base->sym ||
      base->sym->kind != SYM_SHARED || !base->sym->varying || !base->sym->is_array || index_varying(lhs) ||
      node_has_side_effects(lhs) || sym_dims(F, base->sym) != m)
    return false;
  Node *rhs = n->kid[1];
  if ((!rhs->type_arith && !as_written(rhs)->type_arith) || wrap_refusal(F, rhs))
    return false;
  const char *indent = indent_of(F, s);
  for (int i = 0; i < ngroups(F, m); i++) {
    Copy r = group_at(F, m, i);
    char *g = group_guard(F, ctx, r);
    if (!g) {
      piece(F, indent, render(F, s, r));
      continue;
    }
    char *value = render_ex(F, rhs, rhs->begin, rhs->end, r, 0, NULL);
    piece(F, indent, render_replacing(F, s, rhs, arena_printf("%s ? (%s) : 0", g, value), r));
  }
  return true;
}

static void emit_if(Fuse *F, Node *s, Ctx *ctx) {
  const char *indent = indent_of(F, s);
  if (s->loop_varying && s->els && emit_select(F, s, ctx))
    return;
  if (!s->loop_varying) {
    piece(F, indent, render_ex(F, s, s->begin, s->then->begin, uniform_copy, 0, NULL));
    emit_body(F, s->then, ctx, indent);
    if (s->els) {
      unsigned te = stmt_end(F->src, s->then);
      buf_add(&F->out, F->src->text + te, s->els->begin - te);
      emit_body(F, s->els, ctx, indent);
    }
    after_vreturn(s, ctx);
    return;
  }
  /* Predicated: one bool per copy, the branch once if any copy takes it.
   * Several dimensions: one bool per group of copies along the dimensions
   * the condition and the guards vary along (all, if the condition has an
   * effect: each copy evaluates its own); pred[] holds each copy's group's. */
  int id = ++F->pred_seq;
  unsigned pm = F->all;
  if (F->multi && !node_has_side_effects(s->cond))
    pm = node_dims(F, s->cond) | guard_dims(F, ctx);
  int ng = ngroups(F, pm);
  char **then_pred = arena_alloc(sizeof(char *) * (size_t)F->K);
  char **else_pred = arena_alloc(sizeof(char *) * (size_t)F->K);
  char **then_g = arena_alloc(sizeof(char *) * (size_t)ng);
  char **else_g = arena_alloc(sizeof(char *) * (size_t)ng);
  for (int r = 0; r < ng; r++) {
    Copy c = group_at(F, pm, r);
    char *g = group_guard(F, ctx, c);
    char *cond = render_ex(F, s->cond, s->cond->begin, s->cond->end, c, 0, NULL);
    then_g[r] = arena_printf("__tf_p%d%s", id, copy_suffix(F, pm, c));
    piece(F, indent, arena_printf("const bool %s = %s%s(%s);", then_g[r], g ? g : "", g ? " && " : "", cond));
  }
  if (s->els)
    for (int r = 0; r < ng; r++) {
      Copy c = group_at(F, pm, r);
      char *g = group_guard(F, ctx, c);
      else_g[r] = arena_printf("__tf_q%d%s", id, copy_suffix(F, pm, c));
      piece(F, indent, arena_printf("const bool %s = %s%s!%s;", else_g[r], g ? g : "", g ? " && " : "", then_g[r]));
    }
  for (int r = 0; r < F->K; r++) {
    int g = group_index(F, pm, group_at(F, F->all, r));
    then_pred[r] = then_g[g];
    else_pred[r] = s->els ? else_g[g] : NULL;
  }
  for (int branch = 0; branch < (s->els ? 2 : 1); branch++) {
    char **pred = branch ? else_g : then_g;
    Buf any = {0};
    for (int r = 0; r < ng; r++)
      buf_printf(&any, "%s%s", r ? " || " : "", pred[r]);
    piece(F, indent, arena_printf("if (%s) ", any.data));
    buf_free(&any);
    Ctx inner = *ctx;
    inner.pred = branch ? else_pred : then_pred;
    inner.any_true = true;
    inner.live_active = false; /* the predicates already include the flags */
    inner.region = ctx->region + 1;
    inner.region_stmt = s;
    emit_body(F, branch ? s->els : s->then, &inner, indent);
  }
  after_vreturn(s, ctx);
}

/* `prefix`: the text of `#pragma unroll` and the like before the loop. */
static void emit_loop(Fuse *F, Node *s, Ctx *ctx, const char *prefix) {
  const char *indent = indent_of(F, s);
  if (s->loop_varying) {
    emit_replicated(F, s, ctx);
    return;
  }
  if (s->has_vreturn) {
    ctx->live_active = true;
    ctx->any_true = false;
  }
  char *any = any_of(F, ctx);
  Ctx inner = *ctx;
  if (any)
    inner.any_true = !s->has_vreturn;
  char *head = render_ex(F, s, s->begin, s->body->begin, uniform_copy, 0, NULL);
  if (prefix)
    head = arena_printf("%s%s", prefix, head);
  if (any && prefix) {
    /* A pragma must stay directly before its loop. */
    piece(F, indent, arena_printf("if (%s) {", any));
    piece(F, indent, head);
  } else {
    piece(F, indent, any ? arena_printf("if (%s) %s", any, head) : head);
  }
  if (s->has_vreturn) {
    /* The copies' returns no longer leave the loop: leave it once every
     * copy has returned (a loop whose only exit is `return` would spin). */
    Ctx live = *ctx;
    live.live_active = true;
    live.any_true = false;
    F->body_head = arena_printf("if (!(%s)) break;", any_of(F, &live));
  }
  emit_body(F, s->body, &inner, indent);
  if (s->kind == N_DO) {
    unsigned be = stmt_end(F->src, s->body);
    buf_puts(&F->out, render_ex(F, s, be, stmt_end(F->src, s), uniform_copy, 0, NULL));
  }
  if (any && prefix)
    piece(F, indent, "}");
  if (inner.live_active)
    ctx->live_active = true;
  after_vreturn(s, ctx);
}

static void emit_stmt(Fuse *F, Node *s, Ctx *ctx) {
  const char *indent = indent_of(F, s);
  switch (s->kind) {
  case N_COMPOUND: {
    piece(F, indent, "{");
    if (F->body_head) {
      buf_printf(&F->out, " %s", F->body_head);
      F->body_head = NULL;
    }
    unsigned pos = s->begin + 1;
    for (int i = 0; i < s->nkid; i++) {
      Node *k = s->kid[i];
      gap(F, pos, k->begin);
      if (k == F->k->copy_tail) {
        emit_copy_tail(F, s, i, ctx);
        pos = stmt_end(F->src, s->kid[s->nkid - 1]);
        break;
      }
      emit_stmt(F, k, ctx);
      pos = stmt_end(F->src, k);
    }
    gap(F, pos, s->end - 1);
    buf_puts(&F->out, "}");
    F->first = false;
    return;
  }
  case N_DECL_STMT:
    emit_decl_stmt(F, s, ctx);
    return;
  case N_IF:
    emit_if(F, s, ctx);
    return;
  case N_FOR:
  case N_WHILE:
  case N_DO:
    emit_loop(F, s, ctx, NULL);
    return;
  case N_ATTRIBUTED:
    if (s->body && (s->body->kind == N_FOR || s->body->kind == N_WHILE || s->body->kind == N_DO) &&
        !s->body->loop_varying) {
      /* `#pragma unroll` and friends stay on the loop emitted once. */
      emit_loop(F, s->body, ctx, render_ex(F, s, s->begin, s->body->begin, uniform_copy, 0, NULL));
      return;
    }
    if (s->varying || s->has_vreturn) {
      emit_replicated(F, s, ctx);
      return;
    }
    piece(F, indent, render(F, s, uniform_copy));
    return;
  case N_SWITCH:
    if (s->varying || s->has_vreturn)
      emit_replicated(F, s, ctx);
    else
      piece(F, indent, render(F, s, uniform_copy));
    return;
  case N_RETURN:
    if (!s->has_vreturn) {
      piece(F, indent, render(F, s, uniform_copy));
      return;
    }
    for (int r = 0; r < F->K; r++) {
      Copy c = group_at(F, F->all, r);
      piece(F, indent, guarded(guard_of(F, ctx, c), arena_printf("__tf_live%s = false;", copy_suffix(F, F->all, c)),
                               indent));
    }
    ctx->live_active = true;
    ctx->any_true = false;
    return;
  case N_BREAK:
  case N_CONTINUE:
  case N_NULL_STMT:
    piece(F, indent, render(F, s, uniform_copy));
    return;
  default:
    break;
  }

  /* An expression statement. */
  Facts f = facts_of(F, s);
  if (!stmt_is_per_copy(s)) {
    char *any = (f.any_load || f.effects) ? any_of(F, ctx) : NULL;
    char *text = render(F, s, uniform_copy);
    piece(F, indent, any ? arena_printf("if (%s) %s", any, text) : text);
    return;
  }
  bool need = facts_need_guard(F, &f, ctx);
  unsigned m = stmt_copy_mask(F->k, s);
  check_writes(F, s, m);
  Vec warps = {0};
  bool has_warp = find_warp_calls(s, &warps, false) && warps.len;
  vec_free(&warps);
  if (need && !has_warp && emit_replica_store(F, s, ctx, m))
    return;
  Vec hoisted = {0};
  if (f.effects)
    emit_hoists(F, s, ctx, &hoisted);
  hoist_block_reductions(F, s);
  for (int i = 0; i < ngroups(F, m); i++) {
    Copy c = group_at(F, m, i);
    char *g = need ? group_guard(F, ctx, c) : NULL;
    Vec extra = {0};
    for (int j = 0; j < hoisted.len; j++)
      vec_push(&extra, hoisted.items[j]);
    if (!emit_warp_hoists(F, s, s, c, g, ctx, &extra)) {
      char *text = render_ex(F, s, s->begin, stmt_end(F->src, s), c, 0, &extra);
      piece(F, indent, guarded(g, text, indent));
    }
    vec_free(&extra);
  }
  vec_free(&hoisted);
}

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
