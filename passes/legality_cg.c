/* legality_cg: cooperative groups, what each group a kernel makes means
 * in each mode (below), and the refusals where a coarsened kernel would
 * give a group other threads than the original's. */
#include "passes.h"
#include "legality_int.h"
#include <stdarg.h>
#include <string.h>

/* ---- cooperative groups in block mode ----
 *
 * Block mode keeps the block's threads, warps and lanes: copy r of the
 * physical block is logical block r, thread for thread.  What a group is
 * made from (its sources) decides what its calls mean:
 *   - the block, a tile of one warp, `tiled_partition(block, n)` (a tile of
 *     n <= 32 threads by thread rank, a mask the header computes from the
 *     rank and lane): the same threads in every copy, so their queries
 *     are exact, and their collectives too under guards the whole block
 *     shares;
 *   - a tile of several warps (`tiled_partition<64>(block)`): its queries
 *     are exact; it is made, synchronised and reduced through barriers
 *     over its warps, which node_is_barrier names, so the kernel walk and
 *     check_barrier_call keep them where __syncthreads() may be (each copy's
 *     call then runs in every thread of the block, one after the other, as
 *     successive collectives of one block);
 *   - a coalesced group (coalesced_threads(), labeled_partition,
 *     binary_partition): its mask is the set of threads that ran the
 *     statement together, exact where copy r's statement runs in exactly
 *     the threads of logical block r's warp that reach it (coalesced_site);
 *   - a type-erased `thread_group` or a template's `Group &` parameter:
 *     followed back to every initializer and every argument of every call
 *     of the function that declares it (cg_sources); its sync is a barrier
 *     (node_is_barrier) whatever it was made from;
 *   - the grid and every other group are refused. */
enum { SRC_BLOCK = 1, SRC_TILE = 2, SRC_MULTI = 4, SRC_COALESCED = 8 };

static unsigned cg_sources(Legal *L, Node *g, int depth, const char **why);

/* The call n (through wrappers) is the callee of, or NULL. */
static Node *call_of_callee(Node *n) {
  Node *p = n->parent;
  while (p && node_is_value_wrapper(p) && p->kind != N_CALL)
    n = p, p = p->parent;
  return p && p->kind == N_CALL && p->nkid && p->kid[0] == n ? p : NULL;
}

static bool call_may_call(const Node *call, const Sym *fn) {
  if (call->sym)
    return call->sym == fn;
  for (int i = 0; i < call->ncand; i++)
    if (call->cand[i] == fn)
      return true;
  return false;
}

/* The sources of parameter `index` of fn: its argument at every call in the
 * project's functions; any other reference to fn (its address) fails. */
static unsigned param_sources(Legal *L, Node *n, const Sym *fn, int index, int depth, const char **why) {
  unsigned src = 0;
  if (n->kind == N_DECL_REF && n->sym == fn && !call_of_callee(n)) {
    *why = arena_printf("'%s' is used other than by calls, so tfuse cannot tell what groups it is given",
                        fn->name);
    return 0;
  }
  if (n->kind == N_CALL && call_may_call(n, fn)) {
    Node *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(n, &obj, &obj_ptr, &args);
    src = index < args.len ? cg_sources(L, args.items[index], depth + 1, why) : 0;
    if (index >= args.len && !*why)
      *why = arena_printf("a call of '%s' leaves its group to a default argument", fn->name);
    vec_free(&args);
    if (!src)
      return 0;
  }
  for (int i = 0; i < n->nkid; i++) {
    unsigned k = param_sources(L, n->kid[i], fn, index, depth, why);
    if (!k && *why)
      return 0;
    src |= k;
  }
  return src;
}

/* What the group expression g may have been made from (SRC_*), or 0 with
 * *why saying what tfuse cannot follow. */
static unsigned cg_sources(Legal *L, Node *g, int depth, const char **why) {
  g = node_strip(g);
  while ((g->cg_group == CG_ERASED || g->cg_group == CG_NONE) && node_is_value_wrapper(g) && g->nkid)
    g = node_strip(g->kid[g->nkid - 1]);
  switch (g->cg_group) {
  case CG_BLOCK: return SRC_BLOCK;
  case CG_TILE: return SRC_TILE;
  case CG_MULTI: return SRC_MULTI;
  case CG_COALESCED: return SRC_COALESCED;
  case CG_GRID:
    *why = "a grid-wide group, which coarsening changes";
    return 0;
  case CG_OTHER:
    *why = "a cluster or multi-grid group, which coarsening changes";
    return 0;
  default:
    break;
  }
  if (depth > 8) {
    *why = "a group passed through too many functions for tfuse to follow";
    return 0;
  }
  const Sym *cg = g->kind == N_CALL ? (g->sym ? g->sym : g->ncand ? g->cand[0] : NULL) : NULL;
  /* `this_thread_block(scratch)` in a template (its type depends on the
   * scratch's): the block all the same. */
  const char *cgname = cg_call_name(g);
  if (cgname && !strcmp(cgname, "this_thread_block"))
    return SRC_BLOCK;
  if (cg && sym_is_cooperative_groups(cg) && cg->name && !strcmp(cg->name, "tiled_partition")) {
    if (g->cg_group == CG_NONE)
      return SRC_TILE | SRC_MULTI; /* `tiled_partition<N>(b)`, N a template parameter */
    Node *parent = cg_group_operand(g);
    unsigned p = parent ? cg_sources(L, parent, depth + 1, why) : 0;
    if (!p && !*why)
      *why = "a run-time tile of a group tfuse cannot follow";
    /* tiled_partition(parent, n): n <= 32 threads by the block's thread rank
     * (a coalesced parent: by its own rank). */
    return !p ? 0 : p & SRC_COALESCED ? SRC_COALESCED : SRC_TILE;
  }
  if (g->kind != N_DECL_REF || !g->sym || (g->sym->kind != SYM_LOCAL && g->sym->kind != SYM_PARAM)) {
    *why = "a type-erased or template-dependent group that tfuse cannot follow to where it is made";
    return 0;
  }
  Sym *s = g->sym;
  Node *f = g;
  while (f && f->kind != N_FUNC && f->kind != N_LAMBDA)
    f = f->parent;
  if (!f || f->kind != N_FUNC || !f->sym || !f->sym->body || cg_group_var_written(f->sym->body, s)) {
    *why = arena_printf("'%s' is a type-erased or template-dependent group that may be assigned or passed by "
                        "reference", s->name);
    return 0;
  }
  if (s->kind == SYM_LOCAL) {
    Node *d = node_find_var(f->sym->body, s);
    Node *init = d ? var_init(d) : NULL;
    if (!init) {
      *why = arena_printf("'%s' is a type-erased or template-dependent group without an initializer", s->name);
      return 0;
    }
    return cg_sources(L, init, depth + 1, why);
  }
  int index = -1;
  for (int i = 0, k = 0; i < f->nkid && index < 0; i++)
    if (f->kid[i]->kind == N_PARAM && k++ >= 0 && f->kid[i]->sym == s)
      index = k - 1;
  if (index < 0 || f->sym->is_global_fn || f->sym->is_method) {
    *why = arena_printf("'%s' is a parameter tfuse cannot follow to the calls that pass it", s->name);
    return 0;
  }
  unsigned src = 0;
  for (int i = 0; i < L->u->functions.len; i++) {
    Node *fn = L->u->functions.items[i];
    unsigned k = param_sources(L, fn, f->sym, index, depth, why);
    if (!k && *why)
      return 0;
    src |= k;
  }
  if (!src && !*why)
    *why = arena_printf("no call of '%s' tells which group '%s' is", f->sym->name, s->name);
  return src;
}

/* Why a coalesced group at n (in the kernel's body: its making, a use but
 * as a query's object, a call of a helper that holds one) may not hold in
 * copy r the threads that hold it in logical block r, or NULL.  (A query
 * reads the group's mask: a value, exact wherever it is read.)  Copy r's statements run under
 * copy r's control: under uniform control (emitted once or per copy, in
 * every thread that reaches the original statement, guarded only by
 * `__tf_ok_r`, which the whole block shares) and inside a loop or switch
 * whose control differs between the copies (fuse.c emits it whole per
 * copy, each copy's statements under that copy's own conditions), the
 * threads of a warp that run copy r's statement together are those of
 * logical block r's warp that run the original.  A predicated `if` runs
 * its branch where any copy takes it, pure statements unguarded, and
 * after a return that only some copies take the copies' live flags
 * differ between threads: there a group would mix threads that the
 * original never runs together.  (As for the warp intrinsics, this takes
 * the threads of a warp that leave one copy's statement to meet again
 * before the next copy's, which the compiler's reconvergence at the
 * statement's end gives; the programming model does not promise it.) */
static bool in_copy_tail(const Legal *L, const Node *n);

const char *coalesced_site(Legal *L, Node *n) {
  if (in_copy_tail(L, n))
    return NULL; /* each copy's statements whole, its own and no other's threads (copy_tail_of) */
  Node *v = L->varying_ctl;
  if (v && v->kind != N_FOR && v->kind != N_WHILE && v->kind != N_DO && v->kind != N_SWITCH)
    return "a coalesced group (made of the threads that run a statement together) under a condition that "
           "differs between the copies: the merged branch runs where any copy takes it";
  if (after_varying_return(n))
    return "a coalesced group (made of the threads that run a statement together) after a return that only some "
           "copies take: the copies' live flags differ between the threads of a warp";
  return NULL;
}

/* Whether the group n is only the object of a query (thread_rank, size,
 * meta_group_rank ...): a value computed from the group's mask, the same
 * wherever it is read. */
bool is_query_object(Node *n) {
  Node *p = n->parent;
  while (p && node_is_value_wrapper(p) && p->kind != N_CALL)
    n = p, p = p->parent;
  Node *c = p && p->kind == N_MEMBER ? p->parent : NULL;
  return c && c->kind == N_CALL && c->nkid && c->kid[0] == p && c->sym && sym_is_cooperative_groups(c->sym) &&
         fn_class(c->sym) == FN_PURE && !c->sym->is_ctor && !c->sym->is_defaulted;
}

static bool is_coalesced(const Node *n) { return n->cg_group == CG_COALESCED; }

/* Whether fn's body, or a helper it calls, holds an expression of type
 * coalesced_group: the kernel's calls of fn answer for it (coalesced_site). */
bool fn_holds_coalesced(const Sym *fn) { return fn_holds(fn, is_coalesced); }

/* Whether n holds a coalesced group: its making, a use, a call of a helper
 * that holds one. */
static bool holds_coalesced(const Node *n) { return node_holds(n, is_coalesced); }

static bool declares_shared(const Node *n) {
  if (n->kind == N_VAR && n->sym && n->sym->kind == SYM_SHARED)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (declares_shared(n->kid[i]))
      return true;
  return false;
}

/* Whether every variable s writes that is declared before `from` (a
 * local, a parameter, a shared variable) has a copy per logical block,
 * along every coarsened dimension (uniform.c makes a write after a varying
 * return the copy's; with several dimensions it may vary along fewer). */
static bool tail_writes_vary(const Legal *L, Node *s, unsigned from) {
  unsigned all = params_multi(&L->k->p) ? params_dims(&L->k->p) : 0;
  Effects fx = {0};
  effects_of(s, &fx);
  bool ok = true;
  for (int j = 0; j < fx.writes.len && ok; j++) {
    const Sym *w = fx.writes.items[j];
    if ((w->kind == SYM_LOCAL || w->kind == SYM_PARAM || w->kind == SYM_SHARED) &&
        (w->decl_off == ~0u || w->decl_off < from))
      ok = w->varying && (w->vmask & all) == all;
  }
  effects_free(&fx);
  return ok;
}

/* Block mode: where fuse.c stops interleaving the copies' statements and
 * writes each copy's rest of the kernel out whole, under that copy's live
 * flag (Kernel.copy_tail), or NULL.  After a return that only some copies
 * take (`if (i >= n) return;`, a statement of the kernel's body), the
 * copies' live flags differ between the threads of a warp; interleaved,
 * a coalesced group made once, or unguarded by a pure statement, would
 * hold threads whose logical thread returned.  Whole, copy r's rest runs
 * in the threads of logical block r that did not return, as the original's
 * rest does, and a return in it leaves that copy alone.  Only where the
 * rest holds a coalesced group (the interleaving is what keeps uniform work
 * once), declares no shared array (one declaration per copy's rest would
 * be another layout) and holds no barrier (refused after such a return
 * anyway, as every thread must reach it). */
Node *copy_tail_of(const Legal *L) {
  if (L->k->p.mode != MODE_BLOCK)
    return NULL;
  Node *body = L->k->fn->sym->body;
  for (int i = 0; i < body->nkid; i++) {
    if (!body->kid[i]->has_vreturn)
      continue;
    bool coalesced = false;
    for (int j = i + 1; j < body->nkid; j++) {
      if (declares_shared(body->kid[j]) || !tail_writes_vary(L, body->kid[j], body->kid[i + 1]->begin))
        return NULL;
      coalesced |= holds_coalesced(body->kid[j]);
    }
    return coalesced ? body->kid[i + 1] : NULL;
  }
  return NULL;
}

/* Whether n is in the kernel's statements that fuse.c writes per copy whole. */
static bool in_copy_tail(const Legal *L, const Node *n) {
  const Node *t = L->k->copy_tail, *body = L->k->fn->sym->body;
  if (!t)
    return false;
  while (n->parent && n->parent != body)
    n = n->parent;
  return n->parent == body && n->begin >= t->begin;
}

/* Block mode: why tfuse cannot follow a call into cooperative groups, or NULL. */
static const char *cg_block_refusal(Legal *L, Node *call, Sym *fn, Node *g, Sym *in) {
  const char *nm = fn->name ? fn->name : "";
  FnClass c = fn_class(fn);
  if (!strcmp(nm, "this_grid"))
    return NULL; /* the grid's handle: its queries are renumbered, the rest refused */
  if (cg_is_grid_query(fn)) {
    /* fuse.c writes the query out per copy from the logical block index
     * and grid extent, as it renders blockIdx and gridDim (grid_query_text). */
    if (in)
      return "a query of the grid in a helper, which reads the block index: tfuse renumbers it only in the "
             "kernel's own text; pass the value as an argument";
    if (call->in_macro || call->end <= call->begin)
      return "a query of the grid inside a macro expansion, which reads the block index: text rewriting cannot "
             "reach it; expand the macro by hand";
    return NULL;
  }
  if (!strcmp(nm, "group_index") || !strcmp(nm, "block_index") || !strcmp(nm, "block_rank"))
    return "it reads the block index, which tfuse renumbers only where it is spelled blockIdx";
  if (g && g->cg_group == CG_GRID)
    return "grid-wide synchronisation, or another use of the grid than its queries: coarsening changes the grid";
  if (c == FN_COOPERATIVE)
    return "tfuse follows the block, tiles, coalesced and type-erased groups made of them (their queries, "
           "collectives, cg::reduce and the scans), not this";
  const char *why = NULL;
  bool made = !strcmp(nm, "tiled_partition") || !strcmp(nm, "coalesced_threads");
  unsigned src = made ? cg_sources(L, call, 0, &why) : g ? cg_sources(L, g, 0, &why) : 0;
  if (!src)
    return why ? why : "its group is not one tfuse follows";
  if (!cg_operators_known(L, call))
    return "its operator is not one of cooperative groups' (cg::plus, cg::less, ...): it runs inside CUDA's "
           "headers, where tfuse cannot see what it reads";
  return NULL;
}

/* Thread mode, a query of the block or of a tile: why fuse.c cannot give
 * each copy its logical value, or NULL.  With whole warps (warps_kept)
 * copy r of physical thread t is logical thread t.x + r * blockDim.x / K,
 * lane for lane: a tile's thread_rank and size, and the meta_group_* of a
 * tile partitioned from a tile (its lane / N), hold as written.  The
 * block's thread_rank, size, thread_index and dims, and the meta_group_*
 * of a tile partitioned from the block (block rank / N, (block size + N -
 * 1) / N in CUDA's headers) read the physical thread and block: fuse.c
 * replaces each copy's call by its value over the logical index and extent
 * (cg_query_text), so only where the call's text is the kernel's own and
 * its group's expression has no effect to keep. */
static const char *cg_thread_query_obstacle(Legal *L, Node *call, Node *g, const char *nm, Sym *in) {
  bool meta = !strncmp(nm, "meta_group_", 11);
  CgGroup parent = meta && g->cg_group == CG_TILE ? cg_tile_parent(g) : CG_NONE;
  const char *what = meta ? "the tile's index among the block's tiles (or their number), which thread mode changes"
                          : "it reads the thread's place in its group or the group's size, which thread mode changes";
  if (g->cg_group == CG_TILE && (!meta || parent == CG_TILE))
    return warps_kept(L) ? NULL : arena_printf("%s%s", what, WARPS_KEPT_ONLY);
  if (meta && parent != CG_BLOCK)
    return arena_printf("%s; tfuse renumbers it only for a tile partitioned from the block or from a tile "
                        "(`cg::tiled_partition<N>(block)`, or a local it initializes that nothing else writes)",
                        what);
  if (cg_query_of(call) == CGQ_NONE)
    return what;
  if (!warps_kept(L))
    return arena_printf("%s; tfuse rewrites it per copy only with -mapping stride along x alone", what);
  if (in)
    return arena_printf("%s; tfuse rewrites it per copy only in the kernel's body (pass the value as an argument)",
                        what);
  if (call->in_macro || call->end <= call->begin || L->u->src->text[call->end - 1] != ')')
    return arena_printf("%s; tfuse rewrites the call per copy, but cannot rewrite this one (spell it outside a "
                        "macro)", what);
  if (!cg_handle_expr(g))
    return arena_printf("%s; tfuse replaces the call per copy by its value, and its group's expression does more "
                        "than name the group (use a variable)", what);
  return NULL;
}

/* A call into cooperative groups (classed by effects.c's cg_class), per
 * call.  Block mode keeps the block's threads and warps: the queries of
 * the block and of a tile (thread_rank, size, meta_group_rank ...) and a
 * tile's collectives (shfl, ballot, match, sync, cg::reduce, the scans)
 * mean in each copy what they meant in the original block, and each copy
 * runs them under its guard, which the whole block shares.  Thread mode
 * moves every logical thread: handles, their copies and the block's
 * barrier stay; with whole warps, tiles' collectives and queries too, and
 * the queries cg_thread_query_obstacle lets fuse.c rewrite per copy.
 * Anything that reads the block index, and every other
 * group (grid, cluster, coalesced, labeled, type-erased, a tile of several
 * warps), are refused. */
void check_cg(Legal *L, Node *site, Node *call, Sym *fn, Sym *in) {
  if (node_is_cg_block_sync(call))
    return; /* the block's barrier: checked where the kernel reaches it */
  FnClass c = fn_class(fn);
  const char *nm = fn->name ? fn->name : "";
  bool thread = L->k->p.mode == MODE_THREAD;
  if (c == FN_PURE && (fn->is_ctor || fn->is_defaulted || !strncmp(nm, "operator ", 9) ||
                       !strcmp(nm, "this_thread_block")))
    return; /* a handle, a copy of one, a reduction's operator */
  Node *g = cg_group_operand(call);
  const char *why = NULL;
  if (!thread) {
    why = cg_block_refusal(L, call, fn, g, in);
  } else if (!strcmp(nm, "tiled_partition")) {
    if (call->cg_group != CG_TILE)
      why = "a tile of more than 32 threads, or of a size given at run time, is not one whose collectives tfuse "
            "follows";
  } else if (!strcmp(nm, "group_index") || !strcmp(nm, "block_index") || !strcmp(nm, "block_rank")) {
    why = "it reads the block index, which tfuse renumbers only where it is spelled blockIdx";
  } else if (c == FN_COOPERATIVE) {
    why = "tfuse follows the block and tiles of at most 32 threads (their queries, collectives, cg::reduce and "
          "the scans), not this";
  } else if (!g || !(g->cg_group == CG_TILE || (g->cg_group == CG_BLOCK && c == FN_PURE))) {
    why = "its group is not the block or a tile of at most 32 threads";
  } else if (!cg_operators_known(L, call)) {
    why = "its operator is not one of cooperative groups' (cg::plus, cg::less, ...): it runs inside CUDA's "
          "headers, where tfuse cannot see what it reads";
  } else if (thread && g->cg_group == CG_TILE && c == FN_WARP) {
    /* Whole warps: a tile's lanes and collectives are the logical warp's. */
    if (!warps_kept(L))
      why = "a collective of a tile, whose lanes thread mode would split across copies" WARPS_KEPT_ONLY;
  } else if (thread) {
    why = cg_thread_query_obstacle(L, call, g, nm, in);
  }
  if (!why)
    return;
  if (in)
    refuse(L, site->begin, "'%s' uses cooperative groups ('%s'): %s", in->name, nm, why);
  else
    refuse(L, site->begin, "cooperative groups ('%s'): %s", nm, why);
}
