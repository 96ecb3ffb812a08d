/* legality: refuses kernels that cannot be coarsened correctly.
 *
 * Contract: requires uniform_analyze on the kernel; reports each reason as
 * a located error (DESIGN.md section 4) and returns false if any.  Runs
 * before fuse, which may then assume: barriers only in uniform control,
 * no warp-synchronous code that thread mode would split, every varying
 * name and logical index spelled in the file's own text, no recursion, no
 * construct the emitter does not model, every callee known (effects.c's
 * table or a body), every helper that reads a changed builtin
 * clonable (fuse.c emit_clones), every default argument that reads one
 * spellable at its call (fuse.c default_arg_sites), and nothing read where
 * no rewrite reaches (effects.c's reads: assembly, implicit calls, shared
 * memory declared in another function), lambdas only as locals called by
 * name whose bodies hold no barrier, warp call or shared memory
 * (check_lambda).
 *
 *   if (threadIdx.x < s) { __syncthreads(); }   // thread mode along x:
 *   error: __syncthreads() under control that differs between the copies
 */
#include "passes.h"

#include <stdarg.h>
#include <string.h>

typedef struct {
  Unit *u;
  Kernel *k;
  bool ok;
  Node *varying_ctl; /* innermost enclosing varying control, or NULL */
  Vec stack;         /* device functions being visited (recursion) */
  Vec checked;       /* device functions whose bodies were checked (each once) */
  Vec shared_refused; /* Sym*: replicated shared variables a refusal named */
  bool in_view_init;  /* walking the initializer of a dynamic shared view (`T *s = SharedMemory<T>();`) */
  Node *coalesced_stmt; /* the kernel's statement whose coalesced group was last checked (coalesced_site) */
  bool warp_shared_refused; /* thread mode: volatile shared memory was refused as warp-synchronous */
} Legal;

static void refuse(Legal *L, unsigned off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(Legal *L, unsigned off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(off, fmt, ap);
  va_end(ap);
  L->ok = false;
}

static const char *builtin_name(Builtin b) {
  switch (b) {
  case BI_THREADIDX: return "threadIdx";
  case BI_BLOCKIDX: return "blockIdx";
  case BI_BLOCKDIM: return "blockDim";
  case BI_GRIDDIM: return "gridDim";
  default: return "?";
  }
}

/* Whether the value of n is computed from the thread index by arithmetic
 * (a lane number, say). A loaded value is data, not an index: `in[i] & 31`
 * does not count, though its address depends on the thread. */
static bool mentions_threadidx(const Node *n) {
  if (n->kind == N_BUILTIN && n->bi == BI_THREADIDX)
    return true;
  if (n->kind == N_SUBSCRIPT || n->kind == N_CALL || (n->kind == N_UNOP && n->op == OP_DEREF) ||
      (n->kind == N_MEMBER && n->arrow))
    return false;
  if (n->kind == N_DECL_REF && n->sym && n->sym->varying)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (mentions_threadidx(n->kid[i]))
      return true;
  return false;
}

/* Thread mode keeps every warp whole when copy r of a physical warp is one
 * logical warp, lane for lane: the stride mapping along x alone (copy r of
 * thread t is t + r * blockDim.x / K), with blockDim.x / K a multiple of
 * 32, which each launch then checks (Kernel.whole_warps).  Warp-synchronous
 * code, tiles and lane arithmetic keep their meaning there. */
static bool warps_kept(Legal *L) {
  Kernel *k = L->k;
  bool x_alone = params_multi(&k->p) ? k->p.kd[0] > 1 && k->p.kd[1] == 1 && k->p.kd[2] == 1 : k->p.dim == 0;
  if (k->p.mode != MODE_THREAD || k->p.mapping != MAP_STRIDE || !x_alone)
    return false;
  k->whole_warps = true;
  return true;
}

#define WARPS_KEPT_ONLY "; thread mode keeps warps whole only with -mapping stride along x alone"

static bool is_lane_constant(const Node *n) {
  n = node_strip((Node *)n);
  if (n->kind == N_DECL_REF && n->sym && n->sym->name && !strcmp(n->sym->name, "warpSize"))
    return true;
  return false;
}

/* What a device function does that coarsening cannot follow. */
static void check_callee(Legal *L, Node *call, Sym *fn);
static void check_call(Legal *L, Node *site, Node *call, Sym *in);

/* Where the kernel's text starts (its pragma, if annotated): clones of
 * helpers are inserted there. */
static unsigned kernel_start(const Kernel *k) { return k->annotated ? k->pragma_off : k->fn->begin; }

/* Why a helper that reads a changed builtin cannot be cloned per copy, or
 * NULL when fuse.c can emit its clone (its text is the project's, seen
 * before the kernel, and it is a free function). */
static const char *clone_obstacle(const Legal *L, const Sym *fn, const Node *bi) {
  Node *d = fn->fn_decl;
  if (bi && bi->bi_dim < 0)
    return "pass the value as an argument instead";
  if (!d || d->end <= d->begin)
    return "it is defined in a header, which tfuse does not rewrite, so it cannot be cloned per copy; pass the "
           "value as an argument instead";
  if (fn->is_method || fn->is_ctor)
    return "tfuse does not clone member functions or constructors per copy; pass the value as an argument instead";
  if (!unit_precedes(L->u, d->end - 1, kernel_start(L->k)))
    return source_file_at(L->u->src, d->begin) == source_file_at(L->u->src, kernel_start(L->k))
               ? "tfuse puts its per-copy clone before the kernel, but it is defined after it; define it before the "
                 "kernel"
               : "tfuse puts its per-copy clone before the kernel, but the kernel's file does not include the "
                 "helper's before it; include it before the kernel, or pass the value as an argument instead";
  return NULL;
}

/* What r reads that the coarsening of k changes, in words: `blockIdx.x`, a
 * register class, or why tfuse cannot tell. */
static const char *changed_read_name(const Kernel *k, const Reads *r) {
  unsigned bits = (r->bi | r->fixed_bi) & reads_changed_bi(k);
  for (int b = BI_THREADIDX; b <= BI_GRIDDIM; b++)
    for (int d = 0; d < 3; d++)
      if (bits & RD_BI(b, d))
        return arena_printf("%s.%s", builtin_name((Builtin)b), dim_name(d));
  unsigned regs = r->regs & reads_changed_regs(k);
  if (regs & RD_REG_LANE)
    return "the lane id";
  if (regs & RD_REG_WARP)
    return "the warp id";
  if (regs & RD_REG_SMEM)
    return "the block's shared memory size";
  if (regs & RD_REG_CLUSTER)
    return "the block's cluster";
  if (regs & RD_ASM_WARP)
    return "a warp-wide instruction";
  return r->why ? r->why : "something tfuse cannot tell";
}

/* A default argument fuse.c can spell at the call (default_arg_sites):
 * its text is the project's, outside a macro, and it is made of builtins,
 * literals, operators and casts to types spelled without a name, which mean
 * the same in the caller as in the declaration. */
static bool default_arg_spellable(const Node *n) {
  if (n->in_macro || n->end <= n->begin)
    return false;
  switch (n->kind) {
  case N_BUILTIN:
    return n->bi_dim >= 0;
  case N_DECL_REF:
    return n->sym && n->sym->kind == SYM_BUILTIN;
  case N_UNOP:
    if (node_is_incdec(n) || n->op == OP_ADDR || n->op == OP_DEREF)
      return false;
    break;
  case N_LITERAL: case N_BINOP: case N_PAREN: case N_UNEXPOSED: case N_CAST: case N_COND:
    break;
  default:
    return false;
  }
  for (int i = 0; i < n->nkid; i++)
    if (!default_arg_spellable(n->kid[i]))
      return false;
  return true;
}

/* A call that leaves out default arguments which read what coarsening
 * changes: they are evaluated at the call, so fuse.c spells them there,
 * per copy (and a helper making such a call is cloned). */
static void check_defaults(Legal *L, Node *site, Node *call, Sym *in) {
  Reads r = {0};
  Vec defs = {0};
  reads_of_defaults(call, &r, &defs);
  if (!reads_changed(L->k, &r))
    goto done;
  Sym *fn = call->sym ? call->sym : call->ncand ? call->cand[0] : NULL;
  const char *who = in ? arena_printf("'%s' calls '%s'", in->name, fn ? fn->name : "?")
                       : arena_printf("call to '%s'", fn ? fn->name : "?");
  const char *what = changed_read_name(L->k, &r);
  unsigned fixed = (r.fixed_bi & reads_changed_bi(L->k)) | (r.regs & reads_changed_regs(L->k));
  if (r.everything || fixed) {
    refuse(L, site->begin, "%s, which leaves out a default argument that reads %s where no rewrite reaches; pass the "
           "argument explicitly", who, what);
    goto done;
  }
  for (int i = 0; i < defs.len; i++) {
    Node *d = defs.items[i];
    const char *param = d && d->parent && d->parent->sym ? d->parent->sym->name : "?";
    if (!d || !default_arg_spellable(d)) {
      refuse(L, site->begin, "%s without the argument of '%s', whose default reads %s, which coarsening changes; "
             "tfuse spells a default at the call only when it is builtins, literals and arithmetic; pass the "
             "argument explicitly", who, param, what);
      goto done;
    }
  }
  if (call->in_macro || call->end <= call->begin || L->u->src->text[call->end - 1] != ')') {
    refuse(L, site->begin, "%s without arguments whose defaults read %s, which coarsening changes; tfuse spells them "
           "at the call, but cannot rewrite this call (spell it `%s(...)`, outside a macro)", who, what,
           fn ? fn->name : "f");
    goto done;
  }
  const char *why = in ? clone_obstacle(L, in, NULL) : NULL;
  if (why)
    refuse(L, site->begin, "%s without arguments whose defaults read %s, which coarsening changes, so '%s' must be "
           "cloned per copy; %s", who, what, in->name, why);
done:
  reads_free(&r);
  vec_free(&defs);
}

/* `x % 32`, `x & 31`, `x >> 5`, `x / warpSize` on the thread index, in thread
 * mode: merged threads no longer form the warps the code assumes. */
static bool lane_arithmetic(const Legal *L, const Node *n) {
  if (L->k->p.mode != MODE_THREAD || n->kind != N_BINOP || n->nkid != 2 ||
      !(n->op == OP_REM || n->op == OP_AND || n->op == OP_SHR || n->op == OP_DIV) || !mentions_threadidx(n->kid[0]))
    return false;
  Node *rhs = node_strip(n->kid[1]);
  if (rhs->end <= rhs->begin)
    return is_lane_constant(rhs);
  const char *t = L->u->src->text + rhs->begin;
  size_t len = rhs->end - rhs->begin;
  return is_lane_constant(rhs) || (len == 2 && (!strncmp(t, "32", 2) || !strncmp(t, "31", 2))) ||
         (len == 1 && n->op == OP_SHR && t[0] == '5');
}

/* A function's name as written at its definition (`operator T *` where
 * clang's name is `operator type-parameter-0-0 *`). */
static const char *written_name(const Legal *L, const Node *f) {
  const Source *src = L->u->src;
  unsigned e = f->loc;
  while (e < f->end && e < src->len && src->text[e] != '(')
    e++;
  while (e > f->loc && (src->text[e - 1] == ' ' || src->text[e - 1] == '\t'))
    e--;
  return e > f->loc ? arena_strndup(src->text + f->loc, e - f->loc) : f->sym->name;
}

/* Inline assembly in a helper the kernel reaches: accepted only where its
 * template is literal text that names no special register the coarsening
 * changes (%ctaid/%nctaid in block mode, %tid/%ntid/%laneid/%warpid in
 * thread mode, a cluster's or the block's shared memory size) and holds no
 * barrier, nor, in thread mode, a warp-wide instruction.  Registers the
 * mode keeps (%laneid in block mode, %smid, %clock) are read as written. */
static void check_helper_asm(Legal *L, Node *call, Sym *fn, Node *a) {
  Reads r = {0};
  const char *reg = NULL;
  if (!reads_of_asm(a, &r, &reg))
    refuse(L, call->begin, "'%s' holds %s: it may read any special register, and coarsening changes the thread's "
           "coordinates", fn->name, r.why);
  else if (reads_changed(L->k, &r))
    refuse(L, call->begin, "'%s' reads %s through inline assembly (%s), which coarsening changes; tfuse does not "
           "rewrite assembly per copy; pass the value as an argument", fn->name, reg ? reg : "a special register",
           changed_read_name(L->k, &r));
  else if (r.regs & RD_ASM_BARRIER)
    refuse(L, call->begin, "'%s' holds a barrier in inline assembly ('%s'), which tfuse cannot place for the merged "
           "%s", fn->name, reg ? reg : "bar", L->k->p.mode == MODE_THREAD ? "threads" : "blocks");
  reads_free(&r);
}

/* Whether n names the function its call calls (the call itself is checked). */
static bool is_callee_ref(Node *n) {
  Node *p = node_parent(n);
  return p && p->kind == N_CALL && n->sym && p->sym == n->sym;
}

static bool is_collective_or_barrier(const Node *n) {
  return n->kind == N_CALL && (node_is_barrier(n) || (n->sym && (fn_class(n->sym) == FN_WARP ||
                                                                 sym_is_cooperative_groups(n->sym))));
}

/* A function of the program's passed as an operator (llm.c's softmax:
 * `cg::reduce(warp, v, reduce_sum_max_op)`): CUDA's header calls it with
 * the operands, so it is known where its code (and its callees') reads
 * nothing the coarsening changes (coordinates, shared memory), writes
 * nothing but its locals, and holds no barrier or collective. */
static bool cg_function_operator_known(Legal *L, Node *a) {
  while (a->kind == N_UNOP && a->op == OP_ADDR && a->nkid == 1)
    a = node_strip(a->kid[0]);
  Sym *fn = a->kind == N_DECL_REF ? a->sym : NULL;
  if (!fn || !fn_computes_value(fn) || fn_holds(fn, is_collective_or_barrier))
    return false;
  Reads r = {0};
  reads_of_fn(fn, &r);
  bool ok = !r.everything && !r.shared.len && !reads_changed(L->k, &r);
  reads_free(&r);
  return ok;
}

/* cg::reduce and the scans apply their operator argument inside CUDA's
 * headers: cooperative groups' own (cg::plus<T>(), cg::greater<T>()
 * ...), whose type is in their namespace, are known to read nothing but
 * their operands, and so is a function of the program's that
 * cg_function_operator_known accepts.  Other calls take no operator. */
static bool cg_operators_known(Legal *L, const Node *call) {
  const char *nm = call->sym && call->sym->name ? call->sym->name : "";
  if (strcmp(nm, "reduce") && strcmp(nm, "inclusive_scan") && strcmp(nm, "exclusive_scan"))
    return true;
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  bool ok = true;
  for (int i = 2; i < args.len; i++) { /* (group, value, operator) */
    Node *a = node_strip(args.items[i]);
    ok = ok && (a->cg_group != CG_NONE || a->cg_construct || cg_function_operator_known(L, a));
  }
  vec_free(&args);
  return ok;
}

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
static bool after_varying_return(const Node *n);

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

static const char *coalesced_site(Legal *L, Node *n) {
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
static bool is_query_object(Node *n) {
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
static bool fn_holds_coalesced(const Sym *fn) { return fn_holds(fn, is_coalesced); }

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
static Node *copy_tail_of(const Legal *L) {
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
static void check_cg(Legal *L, Node *site, Node *call, Sym *fn, Sym *in) {
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

/* Code that runs without a call in the text (a local's destructor, what a
 * construction of a class tfuse cannot tell may run) and reads what the
 * coarsening changes: no rewrite reaches it.  in: the helper holding n. */
static void check_implicit(Legal *L, Node *site, Node *n, Sym *in) {
  if (n->kind == N_CALL && node_parent(n) && node_parent(n)->kind == N_VAR)
    return; /* a declaration's construction: the variable answers for it */
  Reads r = {0};
  reads_implicit(n, &r);
  if (reads_changed(L->k, &r)) {
    ImplicitKind ik = implicit_kind(n);
    Sym *fn = implicit_reader(L->k, ik);
    const char *name = fn && fn->fn_decl && fn->fn_decl->end > fn->fn_decl->begin ? written_name(L, fn->fn_decl)
                       : fn ? fn->name : "?";
    refuse(L, site->begin, "%s%s may run code with no call in the text, and tfuse cannot tell which class's: %s "
           "of the project, '%s', reads %s, which coarsening changes, and no rewrite reaches it there",
           in ? arena_printf("in '%s', ", in->name) : "",
           n->kind == N_VAR ? arena_printf("'%s'", n->sym->name) : n->kind == N_NEW ? "this new/delete"
                                                                                   : "this construction",
           ik == IMPL_ANY ? "a constructor, conversion or destructor" : ik == IMPL_OBJECT ? "a constructor or destructor"
                                                                                         : "a destructor", name,
           changed_read_name(L->k, &r));
  }
  reads_free(&r);
}

static const char *line_of(const Unit *u, unsigned off);

/* Another `extern __shared__` array the kernel reaches than s, one the
 * kernel's body declares first: the name s aliases (every extern array is
 * the block's dynamic shared memory), or NULL. */
static Sym *dyn_alias(Legal *L, const Sym *s) {
  if (!s->is_extern)
    return NULL;
  Vec vars = {0};
  kernel_shared_vars(L->k->fn, &vars);
  Sym *best = NULL;
  Node *body = L->k->fn->sym ? L->k->fn->sym->body : NULL;
  for (int i = 0; i < vars.len; i++) {
    Sym *o = vars.items[i];
    if (o == s || !o->is_extern)
      continue;
    if (body && body->begin <= o->decl_off && o->decl_off < body->end) {
      best = o;
      break;
    }
    if (!best)
      best = o;
  }
  vec_free(&vars);
  return best;
}

static void check_fn_body(Legal *L, Node *call, Sym *fn, Node *n) {
  if (n->kind == N_BUILTIN && (builtin_is_seed(L->k, n) || builtin_is_rescaled(L->k, n) || n->bi_dim < 0)) {
    const char *why = clone_obstacle(L, fn, n);
    if (why) {
      refuse(L, call->begin, "'%s' reads %s, which coarsening changes; %s", fn->name,
             n->bi_dim >= 0 ? arena_printf("%s.%s", builtin_name(n->bi), dim_name(n->bi_dim))
                            : arena_printf("'%s' as a whole", builtin_name(n->bi)),
             why);
      return;
    }
  }
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_BUILTIN && !(n->parent && n->parent->kind == N_BUILTIN)) {
    const char *nm = n->sym->name;
    bool thread = L->k->p.mode == MODE_THREAD;
    if ((!thread && (!strcmp(nm, "blockIdx") || !strcmp(nm, "gridDim"))) ||
        (thread && (!strcmp(nm, "threadIdx") || !strcmp(nm, "blockDim")))) {
      refuse(L, call->begin, "'%s' uses '%s' as a whole, which coarsening changes; tfuse substitutes its "
             "components only; use %s.x/.y/.z", fn->name, nm, nm);
      return;
    }
  }
  if (lane_arithmetic(L, n) && !warps_kept(L)) {
    refuse(L, call->begin, "'%s' does lane arithmetic on the thread index in thread mode: merging threads would "
           "change which lanes form a warp" WARPS_KEPT_ONLY, fn->name);
    return;
  }
  if (n->kind == N_ASM) {
    check_helper_asm(L, call, fn, n);
    return;
  }
  if (n->kind == N_VAR || n->kind == N_NEW || n->kind == N_CALL)
    check_implicit(L, call, n, fn);
  if (n->kind == N_CALL) {
    bool ok = L->ok;
    L->ok = true;
    check_call(L, call, n, fn);
    bool refused = !L->ok;
    L->ok = ok && !refused;
    if (refused)
      return;
  }
  if (n->kind == N_DECL_REF && sym_is_cooperative_groups(n->sym) && !is_callee_ref(n)) {
    refuse(L, call->begin, "'%s' uses cooperative groups ('%s'), whose queries and collectives read thread and "
           "block coordinates that tfuse cannot renumber", fn->name, n->sym->name);
    return;
  }
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_SHARED && n->sym->varying &&
      !(L->in_view_init && n->sym->is_extern)) {
    vec_push(&L->shared_refused, n->sym);
    Sym *other = dyn_alias(L, n->sym);
    if (other)
      refuse(L, call->begin, "'%s' uses extern __shared__ '%s', which lies at the address of '%s' (%s): CUDA places "
             "every extern __shared__ array of a kernel and its functions at the start of the block's dynamic shared "
             "memory; block mode replicates it per logical block, and tfuse renames only the kernel's own uses (pass "
             "the array as an argument)",
             fn->fn_decl && fn->fn_decl->end > fn->fn_decl->begin ? written_name(L, fn->fn_decl) : fn->name,
             n->sym->name, other->name, line_of(L->u, other->decl_off));
    else
    refuse(L, call->begin, "'%s' uses __shared__ '%s', which this kernel replicates per logical block; tfuse "
           "renames only the kernel's own uses (pass the array as an argument)",
           fn->fn_decl && fn->fn_decl->end > fn->fn_decl->begin ? written_name(L, fn->fn_decl) : fn->name,
           n->sym->name);
    return;
  }
  for (int i = 0; i < n->nkid; i++)
    check_fn_body(L, call, fn, n->kid[i]);
}

static void check_callee(Legal *L, Node *call, Sym *fn) {
  for (int i = 0; i < L->stack.len; i++)
    if (L->stack.items[i] == fn) {
      refuse(L, call->begin, "recursive call to '%s': a coarsened kernel cannot recurse", fn->name);
      return;
    }
  if (fn == L->k->sym) {
    refuse(L, call->begin, "recursive call to '%s': a coarsened kernel cannot recurse", fn->name);
    return;
  }
  for (int i = 0; i < L->checked.len; i++)
    if (L->checked.items[i] == fn)
      return; /* reported, if at all, where it was first called */
  vec_push(&L->checked, fn);
  if (L->stack.len > 64)
    return;
  vec_push(&L->stack, fn);
  Node *d = fn->fn_decl;
  if (d && fn->body->parent == d) {
    for (int i = 0; i < d->nkid; i++) /* a constructor's member initializers, then the body */
      if (d->kid[i]->kind != N_PARAM && d->kid[i]->kind != N_TYPE_REF)
        check_fn_body(L, call, fn, d->kid[i]);
  } else {
    check_fn_body(L, call, fn, fn->body);
  }
  L->stack.len--;
}

/* Whether fuse.c can point a call of fn at its clone: `fn(args)` or
 * `fn<T>(args)` spelled in the file, the callee's name then its `(`. */
static bool clone_call_rewritable(const Legal *L, const Node *call, const Sym *fn) {
  Node *c = call->nkid ? node_strip(call->kid[0]) : NULL;
  if (!c || c->kind != N_DECL_REF || call->in_macro || c->in_macro || c->end <= c->begin)
    return false;
  if (c->sym != fn && !(!call->sym && call->ncand == 1 && call->cand[0] == fn))
    return false;
  const Source *src = L->u->src;
  unsigned p = source_skip_space(src, c->end);
  return p < src->len && src->text[p] == '(';
}

/* Whether `n` runs after a `return` that only some copies take: a varying
 * return earlier in an enclosing block, or anywhere in an enclosing loop. */
static bool after_varying_return(const Node *n) {
  for (const Node *p = n->parent; p; n = p, p = p->parent) {
    if (p->kind == N_COMPOUND)
      for (int i = 0; i < p->nkid && p->kid[i] != n; i++)
        if (p->kid[i]->has_vreturn)
          return true;
    if ((p->kind == N_FOR || p->kind == N_WHILE || p->kind == N_DO) && p->has_vreturn)
      return true;
    if (p->kind == N_FUNC)
      break;
  }
  return false;
}

/* The statement a node belongs to: its ancestor directly inside a block or
 * a control statement. */
static Node *enclosing_stmt(Node *n) {
  while (n->parent && n->parent->kind != N_COMPOUND && n->parent->kind != N_IF && n->parent->kind != N_FOR &&
         n->parent->kind != N_WHILE && n->parent->kind != N_DO && n->parent->kind != N_SWITCH &&
         n->parent->kind != N_CASE && n->parent->kind != N_ATTRIBUTED)
    n = n->parent;
  return n;
}

/* Thread mode: why fuse.c cannot compute the copies' combination of the
 * block reduction n once, before its statement (fuse.c
 * hoist_block_reductions), or NULL: the statement must lie directly in a
 * block, be an expression or a declaration of one variable (a second
 * declarator might be read by the predicate), and hold n outside the
 * branches of `?:` and the right operands of `&&` and `||` (which may not
 * evaluate it) and outside a lambda. */
static const char *block_reduce_hoist_obstacle(Node *n) {
  Node *stmt = enclosing_stmt(n);
  if (!stmt->parent || stmt->parent->kind != N_COMPOUND)
    return "it is not a statement of its own in a block";
  if (stmt->kind == N_DECL_STMT) {
    int vars = 0;
    for (int i = 0; i < stmt->nkid; i++)
      vars += stmt->kid[i]->kind == N_VAR;
    if (vars != 1)
      return "a declaration of several variables";
  } else if (stmt->kind == N_IF || stmt->kind == N_FOR || stmt->kind == N_WHILE || stmt->kind == N_DO ||
             stmt->kind == N_SWITCH || stmt->kind == N_RETURN || stmt->kind == N_COMPOUND ||
             stmt->kind == N_ATTRIBUTED) {
    return "a control statement";
  }
  if (node_in_lambda(n))
    return "inside a lambda";
  for (Node *c = n, *p = n->parent; p && p != stmt; c = p, p = p->parent)
    if ((p->kind == N_COND && p->nkid && c != p->kid[0]) ||
        (p->kind == N_BINOP && (p->op == OP_LAND || p->op == OP_LOR) && p->nkid == 2 && c == p->kid[1]))
      return "in a branch of ?:, or right of && or ||, which may not evaluate it";
  return NULL;
}

/* The kernel's call of a helper that (maybe through other helpers) calls
 * __syncthreads().  Emitted once, it is a barrier like a direct one.
 * Emitted once per copy, the copies' calls run one after the other and
 * every thread of the block reaches each copy's barriers in the same
 * order: right in block mode, where each copy is a logical block of its
 * own, as long as every thread makes every copy's call (no varying
 * control, no copy returned: not even a call emitted once, which is then
 * guarded by the copies' live flags); in thread mode only when the helper writes
 * nothing beyond its locals, since a copy's call passes its barrier before
 * the later copies' calls have made their writes. */
static void check_barrier_call(Legal *L, Node *call, Sym *fn) {
  bool thread = L->k->p.mode == MODE_THREAD;
  if (L->varying_ctl) {
    refuse(L, call->begin, "'%s' calls __syncthreads(), under control that differs between the copies: the %s "
           "would need different barriers", fn->name, thread ? "merged threads" : "merged blocks");
    note_at(L->varying_ctl->begin, "this %s depends on the logical %s",
            L->varying_ctl->kind == N_IF ? "condition" : "statement", thread ? "thread index" : "block index");
    return;
  }
  /* After a varying return the call is guarded by the copies' live flags,
   * which differ between the block's threads (even emitted once, by their
   * disjunction). */
  if (after_varying_return(call)) {
    refuse(L, call->begin, "'%s' calls __syncthreads() after a return that only some copies take: a thread would "
           "skip the barriers of its returned copies", fn->name);
    return;
  }
  Node *stmt = enclosing_stmt(call);
  bool per_copy = call->varying || stmt->varying || node_effects_beyond_locals(stmt);
  if (!per_copy)
    return;
  Effects e = {0};
  effects_of_call(call, &e);
  bool writes = effects_beyond_locals(&e); /* the copies' own locals are their own */
  effects_free(&e);
  if (thread && writes)
    refuse(L, call->begin, "'%s' calls __syncthreads() and writes memory: in thread mode each copy's call would "
           "pass its barrier before the later copies' calls have made their writes", fn->name);
}

/* Where the target defines a name (Sym.arch_at): file and line. */
static const char *line_of(const Unit *u, unsigned off) {
  if (off == ~0u)
    return "in a header that only one of the host and device compilations includes";
  const char *path;
  int line, col;
  source_locate(u->src, off, &path, &line, &col);
  return arena_printf("%s:%d", path, line);
}

/* Where fn's arch_name is defined ("path:line"), and the macro through
 * which it differs where that is another. */
static const char *arch_place(const Unit *u, const Sym *fn) {
  const char *at = fn->arch_where ? fn->arch_where : line_of(u, fn->arch_at);
  return fn->arch_via ? arena_printf("%s, through '%s'", at, fn->arch_via) : at;
}

/* Why fn (arch_dependent) may be another function on the device, as the
 * end of a sentence naming fn. */
static const char *arch_reason(Legal *L, const Sym *fn) {
  if (fn->arch_name)
    return arena_printf("which uses '%s' (%s), which is, or uses, what the device compilation defines differently "
                        "from the host side tfuse reads", fn->arch_name, arch_place(L->u, fn));
  return "whose text tests the compilation target (__CUDA_ARCH__, NV_IF_TARGET) or is compiled differently on the "
         "device: tfuse parses the host side and cannot see the device code";
}

/* One function a call may call (its callee, or a candidate of a dependent
 * call).  site: the call in the kernel that leads here (where errors are
 * reported); in: the helper whose body holds `call`, or NULL in the kernel. */
static void check_fn(Legal *L, Node *site, Node *call, Sym *fn, Sym *in) {
  bool thread = L->k->p.mode == MODE_THREAD;
  const char *who = in ? arena_printf("'%s' calls ", in->name) : "call to ";
  if (sym_is_cooperative_groups(fn)) {
    check_cg(L, site, call, fn, in);
    return;
  }
  switch (fn_class(fn)) {
  case FN_BARRIER:
    return; /* in the kernel walk checks its control; in a helper, the kernel's call of it (check_call) */
  case FN_BLOCK_REDUCE:
    /* In the kernel it is a barrier (walk). In a helper, block mode: the
     * helper's call per copy combines copy r's predicate over the physical
     * block, logical block r's answer (its calls obey the barrier rules,
     * check_barrier_call); thread mode: one call of the K would combine
     * only its copy's threads. */
    if (thread)
      refuse(L, site->begin, "%s'%s': in thread mode each copy's call of the helper would combine only that "
             "copy's threads; call it in the kernel, where tfuse combines the copies", who, fn->name);
    return;
  case FN_COOPERATIVE:
    if (in)
      refuse(L, site->begin, "'%s' uses cooperative groups ('%s'), whose queries and collectives read thread and "
             "block coordinates that tfuse cannot renumber", in->name, fn->name);
    else
      refuse(L, site->begin, "cooperative groups ('%s') are not supported in a coarsened kernel: their queries and "
             "collectives read thread and block coordinates that tfuse cannot renumber", fn->name);
    return;
  case FN_WARP:
    if (!thread || warps_kept(L))
      return;
    if (in)
      refuse(L, site->begin, "'%s' uses warp-synchronous '%s', which thread mode would split across copies"
             WARPS_KEPT_ONLY, in->name, fn->name);
    else
      refuse(L, site->begin, "warp-synchronous '%s' in thread mode: merging threads would split the lanes of a warp"
             WARPS_KEPT_ONLY, fn->name);
    return;
  case FN_UNSUPPORTED:
    refuse(L, site->begin, "%s'%s', which works on the physical block, its cluster or the device runtime: "
           "coarsening changes what it sees", who, fn->name);
    return;
  case FN_UNKNOWN:
    if (fn->arch_dependent)
      refuse(L, site->begin, "%s'%s', %s", who, fn->name, arch_reason(L, fn));
    else
      refuse(L, site->begin, "%s'%s', whose body tfuse cannot see", who, fn->name);
    return;
  case FN_BODY:
  {
    if (!in && fn_holds_barrier(fn))
      check_barrier_call(L, call, fn);
    if (!in && !thread && fn_holds_coalesced(fn)) {
      const char *why = coalesced_site(L, call);
      if (why)
        refuse(L, site->begin, "'%s' holds %s", fn->name, why);
    }
    /* Reported at the innermost call the main file's text holds. */
    bool ok = L->ok;
    L->ok = true;
    check_callee(L, in && call->end > call->begin ? call : site, fn);
    bool body_ok = L->ok;
    L->ok = ok && body_ok;
    /* `fp(...)` (fp a template parameter: it has no children, an overload set's name has its set) or
     * `obj.f(...)`: the clone's name would stand for every function the call may call. */
    Node *callee = call->nkid ? node_strip(call->kid[0]) : NULL;
    bool open = !call->sym && (call->ncand > 1 || (callee && (callee->kind == N_MEMBER ||
                                                              (callee->sym && callee->sym->kind == SYM_OTHER && !callee->nkid))));
    if (body_ok && fn_reads_changed_builtins(L->k, fn) && open)
      refuse(L, site->begin, "%s'%s', which reads the coarsened thread or block index and so is called per copy "
             "through a clone, but this call may call other functions too (a template parameter, a member of "
             "dependent type, an overload set): tfuse cannot point it at the clone", who, fn->name);
    else if (body_ok && fn_reads_changed_builtins(L->k, fn) && !clone_call_rewritable(L, call, fn))
      refuse(L, site->begin, "%s'%s', which reads the coarsened thread or block index and so is called per copy "
             "through a clone, but tfuse cannot rewrite this call (spell it `%s(...)`, outside a macro)", who,
             fn->name, fn->name);
    return;
  }
  default:
    return;
  }
}

/* Whether `this_thread_block()` is the initializer of a local that uniform.c
 * marked as the block's handle. cg::sync and .sync() on it are barriers
 * (node_is_barrier); every other use is a call into cooperative groups
 * and refused as before. */
static bool call_inits_block_handle(const Node *call) {
  for (const Node *p = call->parent; p; p = p->parent) {
    if (p->kind == N_VAR)
      return p->sym && p->sym->cg_block; /* any other use of it is a cooperative-groups call, refused */
    if (p->kind != N_UNEXPOSED && p->kind != N_CALL && p->kind != N_PAREN && p->kind != N_CAST)
      return false;
  }
  return false;
}

/* A call (in the kernel, or in a helper `in` the kernel's call `site`
 * reaches): what it may call, and that tfuse can follow it. */
static void check_call(Legal *L, Node *site, Node *call, Sym *in) {
  const char *who = in ? arena_printf("'%s' calls ", in->name) : "call to ";
  if (call->is_launch) {
    refuse(L, site->begin, "kernel launch inside a coarsened kernel is not supported");
    return;
  }
  check_defaults(L, site, call, in);
  if (!in && node_is_cg_block_handle(call) && call_inits_block_handle(call))
    return; /* `cg::thread_block b = cg::this_thread_block();`, used only to sync */
  if (call->sym && call->sym->kind == SYM_OTHER) {
    refuse(L, site->begin, "%s'%s', a template parameter: tfuse knows the functions it stands for only when "
           "every naming of its template (one input, parameters all non-type) passes a named function for it "
           "explicitly (`t<fn>`), none deduced, defaulted or a pointer variable", who, call->sym->name);
    return;
  }
  if (call->sym && call->sym->kind != SYM_FUNC) {
    refuse(L, site->begin, "%s'%s', a function pointer or function object: tfuse cannot see what it calls", who,
           call->sym->name);
    return;
  }
  if (call->sym) {
    check_fn(L, site, call, call->sym, in);
    return;
  }
  if (call->cand) {
    if (!call->ncand)
      refuse(L, site->begin, "%s'%s', which no declaration before the template names (found only where it is "
             "instantiated): tfuse cannot see what it calls", who, call->spelling);
    for (int i = 0; i < call->ncand; i++)
      check_fn(L, site, call, call->cand[i], in);
    return;
  }
  if (call_is_construct(call))
    return;
  /* A callee clang could not resolve: named by its text (`acc.add`, `T::f`). */
  Node *c0 = call->nkid ? node_strip(call->kid[0]) : NULL;
  const char *name = call->spelling && call->spelling[0] ? call->spelling : NULL;
  if ((!name || (c0 && c0->kind == N_MEMBER)) && c0 && (c0->kind == N_MEMBER || c0->kind == N_DECL_REF) &&
      c0->end > c0->begin) /* `acc.add` as written */
    name = arena_strndup(L->u->src->text + c0->begin, c0->end - c0->begin);
  if (c0 && c0->kind == N_MEMBER && name)
    refuse(L, site->begin, "%s'%s', a member of an object whose type depends on a template parameter: tfuse "
           "cannot tell which function it calls", who, name);
  else if (c0 && c0->kind == N_DECL_REF && name)
    refuse(L, site->begin, "%s'%s', whose declaration depends on a template parameter: tfuse cannot tell which "
           "function it calls", who, name);
  else
    refuse(L, site->begin, "%sa function through a pointer: tfuse cannot see what it calls", in ? who : "call of ");
}

static bool contains_exit(const Node *n) {
  if (n->kind == N_BREAK || n->kind == N_RETURN)
    return true;
  if (n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO || n->kind == N_SWITCH)
    return false;
  for (int i = 0; i < n->nkid; i++)
    if (contains_exit(n->kid[i]))
      return true;
  return false;
}

/* A read that can see another thread's write while this one runs:
 * volatile, atomic or cache-bypassing. */
static bool reads_other_threads(const Legal *L, const Node *n) {
  if (!n)
    return false;
  if (n->kind == N_DECL_REF && n->sym && n->sym->is_volatile)
    return true;
  if (n->kind == N_CALL && n->sym && n->sym->name &&
      (fn_class(n->sym) == FN_LOAD_SHARED || fn_class(n->sym) == FN_STORE || fn_class(n->sym) == FN_LOAD ||
       !strncmp(n->sym->name, "atomic", 6) || !strncmp(n->sym->name, "__ld", 4) || strstr(n->sym->name, "load")))
    return true;
  if (n->kind == N_CAST) {
    const char *t = L->u->src->text;
    for (unsigned i = n->begin; i + 8 <= n->end; i++)
      if (!strncmp(t + i, "volatile", 8))
        return true;
  }
  for (int i = 0; i < n->nkid; i++)
    if (reads_other_threads(L, n->kid[i]))
      return true;
  return false;
}

/* Whether a statement leaves the loop (break/return) under a condition
 * that reads other threads' writes. */
static bool exit_waits(const Legal *L, const Node *n) {
  if (n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO || n->kind == N_SWITCH)
    return false; /* their breaks are their own */
  if (n->kind == N_IF && reads_other_threads(L, n->cond)) {
    for (int b = 0; b < 2; b++) {
      const Node *br = b ? n->els : n->then;
      if (br && (contains_exit(br)))
        return true;
    }
  }
  for (int i = 0; i < n->nkid; i++)
    if (exit_waits(L, n->kid[i]))
      return true;
  return false;
}

static bool loop_waits_on_memory(const Legal *L, const Node *loop) {
  if (reads_other_threads(L, loop->cond))
    return true;
  return loop->body && exit_waits(L, loop->body);
}

/* Where a replicated shared array's name may appear: indexed, or its
 * address (`sh`, `&sh[i]`, `sh + i`) given to a call or to a local
 * pointer.  Each copy's statement then names its own replica (`put(sh_1,
 * ..)`, `p_1 = &sh_1[i]`), and effects.c follows the local pointer.  Stored
 * anywhere else, the address would outlive what tfuse can rename. */
static bool shared_address_followed(Node *ref) {
  Node *n = ref, *p = n->parent;
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN || p->kind == N_CAST ||
               (p->kind == N_BINOP && (p->op == OP_ADD || p->op == OP_SUB)) ||
               (p->kind == N_UNOP && p->op == OP_ADDR) || (p->kind == N_COND && n != p->kid[0]))) {
    n = p;
    p = p->parent;
  }
  if (!p)
    return false;
  if (p->kind == N_SUBSCRIPT && node_strip(p->kid[0]) == node_strip(n))
    return true; /* sh[i], and &sh[i] one level up is handled there */
  if (p->kind == N_SUBSCRIPT || p->kind == N_MEMBER)
    return true;
  if (p->kind == N_CALL && !p->is_launch)
    return true;
  if (p->kind == N_VAR && p->sym && p->sym->kind == SYM_LOCAL && p->sym->is_pointer)
    return true;
  if (p->kind == N_ASSIGN && p->op == OP_ASSIGN && n == p->kid[1]) {
    Node *l = node_strip(p->kid[0]);
    return l->kind == N_DECL_REF && l->sym && l->sym->kind == SYM_LOCAL && l->sym->is_pointer;
  }
  return false;
}

/* Whether a statement's text holds a preprocessor directive (a line
 * starting with `#`, also one between its expression and its `;`): tfuse
 * writes statements out per copy from their text, and cannot carry the
 * directive with them. */
static bool stmt_holds_directive(const Source *src, const Node *n) {
  if (n->kind == N_COMPOUND || n->kind == N_IF || n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO ||
      n->kind == N_SWITCH || n->kind == N_ATTRIBUTED || n->end <= n->begin)
    return false; /* their statements are written one by one (`#pragma unroll` before a loop included) */
  if (source_has_directive(src, n->begin, n->end))
    return true;
  if (src->text[n->end - 1] == ';' || src->text[n->end - 1] == '}')
    return false; /* ends with its own text */
  unsigned p = source_skip_space(src, n->end);
  return p < src->len && src->text[p] == '#';
}

/* Whether n holds a barrier, directly or through the helpers it calls. */
static bool holds_barrier(const Node *n) {
  if (node_is_barrier(n) || (n->kind == N_CALL && n->sym && fn_holds_barrier(n->sym)))
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (holds_barrier(n->kid[i]))
      return true;
  return false;
}

/* Whether the explicit capture `cap` of lambda `lam` is an init-capture
 * (`y = e`, `y{e}`, `y(e)`) whose initializer, read in the text up to the
 * next top-level `,` or the `]`, may call a function or write a variable
 * (a `(`, `++`, `--`, or an assignment): the tree does not always hold the
 * initializer's operators. */
static bool init_capture_may_write(const Source *src, const Node *lam, const Node *cap) {
  const char *t = src->text;
  size_t nl = strlen(cap->captured->name);
  if (cap->in_macro || cap->loc + nl > src->len || strncmp(t + cap->loc, cap->captured->name, nl))
    return true;
  unsigned i = source_skip_space(src, cap->loc + (unsigned)nl);
  if (i >= lam->end || (t[i] != '=' && t[i] != '{' && t[i] != '('))
    return false;
  if (t[i] == '(')
    return true; /* `y(e)`: read as a call would be */
  int depth = 0;
  for (i++; i < lam->end; i++) {
    char c = t[i], d = t[i + 1];
    if (c == '(' && depth >= 0)
      return true;
    if (c == '[' || c == '{')
      depth++;
    else if (c == ']' || c == '}') {
      if (depth-- == 0)
        return false;
    } else if (c == ',' && depth == 0)
      return false;
    else if ((c == '+' && d == '+') || (c == '-' && d == '-'))
      return true;
    else if (c == '=' && d != '=' && !strchr("=!<>", t[i - 1]))
      return true;
  }
  return true;
}

/* A lambda of the kernel (DESIGN-NOTES "Lambdas"): accepted when bound to a
 * local (`auto f = [&](int j) {...};`, effects.c Sym.lambda) that is only
 * called.  The declaration is then emitted per copy, each closure's body
 * and capture list rendered for its copy (varying names renamed, in
 * explicit captures `[x, &y, z = x + 1]` too, indices renumbered), and
 * each call `f(x)` is a call with effects, per copy under the copy's guard,
 * whose writes are those of the body at the call: copy r runs its own
 * closure, as its logical thread did.  What that scheme cannot make exact
 * is refused: a barrier, warp-synchronous or cooperative-groups call (its
 * place among the copies' statements is not one the barrier and warp rules
 * looked at), shared memory, an init-capture whose initializer calls or
 * writes (each copy's closure runs it), a generic lambda or
 * one with a declared return type (a reference may escape), nested
 * lambdas. */
static bool check_lambda(Legal *L, Node *n) {
  const char *why = NULL;
  Node *body = n->nkid ? n->kid[n->nkid - 1] : NULL;
  const Source *src = L->u->src;
  const Node *p = n->parent;
  while (p && p->kind == N_UNEXPOSED)
    p = p->parent;
  if (!p || p->kind != N_VAR || !p->sym || p->sym->lambda != n || n->in_macro)
    why = "only a lambda that initializes a local (`auto f = [&](...) {...};`), outside a macro, is coarsened";
  else if (node_in_lambda(n))
    why = "a lambda inside a lambda is not supported";
  for (int i = 0; !why && i + 1 < n->nkid; i++) {
    Node *k = n->kid[i];
    /* An explicit capture is renamed with its variable (fuse.c); `[=]`
     * lists what it captures as references located at the `=`; a `[x]`
     * capture's copy is at the capture's name. */
    if (k->kind == N_OTHER && !k->captured)
      why = "tfuse cannot read this lambda's capture list";
    else if ((k->kind != N_PARAM && lambda_capture_init(src->text, n, k) && node_has_side_effects(k)) ||
             (k->kind == N_OTHER && init_capture_may_write(src, n, k)))
      why = "an init-capture whose initializer calls a function or writes a variable is not supported (each copy's "
            "closure would run it once more)";
    else if (k->kind != N_PARAM)
      continue;
    else if (k->sym && (k->sym->type_dependent ||
                        (k->end - k->begin >= 4 && !strncmp(src->text + k->begin, "auto", 4))))
      why = "a generic lambda (a parameter of type auto) is not supported";
  }
  if (!why && (!body || body->kind != N_COMPOUND))
    why = "tfuse cannot find the lambda's body";
  if (!why) {
    unsigned from = n->nkid > 1 ? n->kid[n->nkid - 2]->end : n->begin;
    for (unsigned i = from; i + 1 < body->begin && !why; i++)
      if (src->text[i] == '-' && src->text[i + 1] == '>')
        why = "a lambda with a declared return type (it may return a reference to a copy's variable) is not "
              "supported";
  }
  if (!why && holds_barrier(body))
    why = "a barrier inside a lambda is not supported";
  if (!why) {
    Reads r = {0};
    reads_of(body, &r);
    if (r.regs & RD_REG_LANE)
      why = "warp-synchronous calls and cooperative groups inside a lambda are not supported";
    else if (r.shared.len)
      why = arena_printf("a lambda that names __shared__ '%s' is not supported", ((Sym *)r.shared.items[0])->name);
    reads_free(&r);
  }
  if (why)
    refuse(L, n->begin, "%s", why);
  return !why;
}

/* A use of a local holding a lambda other than calling it (`g(f)`, `auto
 * h = f;`): the closure would leave the copy's statements. */
static bool lambda_called_here(const Node *ref) {
  const Node *p = ref->parent;
  while (p && p->kind == N_UNEXPOSED && p->nkid == 1)
    p = p->parent;
  return p && p->kind == N_CALL && call_lambda(p) && node_strip(p->kid[0]) == ref;
}

/* Whether an argument of call writes anything (a store, an increment, a
 * call that writes: effects.c; a call of a pure helper does not). */
static bool node_has_side_effects_args(const Node *call) {
  for (int i = 1; i < call->nkid; i++) {
    Effects e = {0};
    effects_of(call->kid[i], &e);
    bool none = effects_none(&e);
    effects_free(&e);
    if (!none)
      return true;
  }
  return false;
}

/* The shared array or the pointer local into shared memory that the
 * expression n designates the memory of (`sh`, `&sh[i]`, `sh + 32`, `v`),
 * or NULL. */
static Sym *shared_memory_named(Node *n) {
  n = node_strip(n);
  while (n && ((n->kind == N_UNOP && n->op == OP_ADDR) || n->kind == N_SUBSCRIPT ||
               (n->kind == N_BINOP && (n->op == OP_ADD || n->op == OP_SUB))))
    n = node_strip(n->kid[0]);
  if (!n || n->kind != N_DECL_REF || !n->sym)
    return NULL;
  if (n->sym->kind == SYM_SHARED || (n->sym->kind == SYM_LOCAL && n->sym->is_pointer && sym_views_shared(n->sym)))
    return n->sym;
  return NULL;
}

/* Parameter i of the function fn, or NULL. */
static Sym *fn_param(const Sym *fn, int i) {
  Node *d = fn ? fn->fn_decl : NULL;
  for (int j = 0, at = 0; d && j < d->nkid; j++)
    if (d->kid[j]->kind == N_PARAM && at++ == i)
      return d->kid[j]->sym;
  return NULL;
}

/* Thread mode (warps_kept, which it sets, says whether accepted): shared memory passed to a helper's
 * parameter of type pointer to volatile (`warpReduce(volatile int *s, int
 * tid)`), the legacy warp-synchronous reduction's form. */
static void check_volatile_shared_arg(Legal *L, Node *call) {
  if (!call->sym || call->is_launch)
    return;
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  for (int i = 0; i < args.len; i++) {
    Sym *sh = shared_memory_named(args.items[i]), *p = sh ? fn_param(call->sym, i) : NULL;
    if (p && p->is_pointer && p->is_volatile && !warps_kept(L)) {
      refuse(L, ((Node *)args.items[i])->begin, "__shared__ '%s' passed to '%s' as a pointer to volatile suggests "
             "warp-synchronous code, which thread mode would split" WARPS_KEPT_ONLY, sh->name, call->sym->name);
      L->warp_shared_refused = true;
      break;
    }
  }
  vec_free(&args);
}

static void walk(Legal *L, Node *n) {
  Kernel *k = L->k;
  bool thread = k->p.mode == MODE_THREAD;
  if (n->kind == N_VAR || n->kind == N_NEW || n->kind == N_CALL)
    check_implicit(L, n, n, NULL);
  if (n->parent && n->parent->kind == N_COMPOUND && stmt_holds_directive(L->u->src, n))
    refuse(L, n->begin, "a preprocessor directive (#if ...) inside this statement: tfuse writes the statement out "
                        "from its text and cannot carry the directive; put the #if around whole statements");
  if (!thread && n->cg_group == CG_COALESCED && (n->kind == N_CALL || (n->kind == N_DECL_REF && !is_query_object(n)))) {
    Node *stmt = enclosing_stmt(n);
    const char *why = stmt != L->coalesced_stmt ? coalesced_site(L, n) : NULL;
    L->coalesced_stmt = stmt;
    if (why)
      refuse(L, n->begin, "%s", why);
  }
  switch (n->kind) {
  case N_CALL:
    if (node_is_barrier(n)) {
      /* Block mode: where the control differs between the copies but not
       * between the threads of one logical block, every thread of the
       * merged block evaluates the same K conditions, so all reach the
       * barrier together (the copies' work is predicated around it). */
      if (L->varying_ctl && (thread || n->barrier_thread_divergent)) {
        /* The barrier as written: `__syncthreads`, `cg::sync`, `block.sync`. */
        const char *t = L->u->src->text, *paren = memchr(t + n->begin, '(', n->end - n->begin);
        const char *name = !n->in_macro && paren ? arena_strndup(t + n->begin, (size_t)(paren - t - n->begin))
                                                  : "__syncthreads";
        refuse(L, n->begin,
               "%s() under control that differs between the copies: the %s would need "
               "different barriers", name, thread ? "merged threads" : "merged blocks");
        note_at(L->varying_ctl->begin, "this %s depends on the logical %s%s",
                L->varying_ctl->kind == N_IF ? "condition" : "statement",
                thread ? "thread index" : "block index",
                thread ? "" : ", and the threads of one block may disagree on reaching the barrier");
      }
      /* Thread mode writes `__syncthreads_count(p)` as the combination of
       * the copies' calls (fuse.c), each evaluating its copy's p. */
      /* A returned copy's thread must count for nothing, but it still
       * reaches the merged block's call. */
      if (node_is_block_reduce(n) && after_varying_return(n))
        refuse(L, n->begin, "%s after a return that only some copies take: the merged %s would still combine "
               "the returned copies' predicates", n->sym->name, thread ? "thread" : "block");
      /* The combination is written into the statement as it stands; a
       * statement written once per copy would evaluate it K times, the
       * later copies' after the earlier copies' stores. */
      const char *unhoisted = thread && node_is_block_reduce(n) && enclosing_stmt(n) &&
                              stmt_is_per_copy(enclosing_stmt(n)) ? block_reduce_hoist_obstacle(n) : NULL;
      if (unhoisted)
        refuse(L, n->begin, "%s in a statement that thread mode writes once per copy (it stores a value that "
               "differs between the copies), where tfuse cannot compute the copies' combination once before it "
               "(%s); assign the call to a variable of its own first", n->sym->name, unhoisted);
      if (thread && node_is_block_reduce(n) && (n->in_macro || node_has_side_effects_args(n)))
        refuse(L, n->begin, "%s: thread mode writes one call per copy, so %s",
               n->sym->name, n->in_macro ? "it must be spelled outside a macro" :
               "its predicate must have no side effects");
    }
    if (thread)
      check_volatile_shared_arg(L, n);
    /* A cooperative-groups call that waits on warps is checked as a call
     * too; a lambda's body is checked where it is written. */
    if (!call_lambda(n) &&
        (!n->sym || (fn_class(n->sym) != FN_BARRIER && !node_is_block_reduce(n) && !node_is_cg_block_sync(n))))
      check_call(L, n, n, NULL);
    break;
  case N_BUILTIN:
    if (n->bi_dim < 0 && n->end - n->begin == strlen(builtin_name(n->bi)) &&
        !strncmp(L->u->src->text + n->begin, builtin_name(n->bi), n->end - n->begin)) {
      /* `uint3 b = blockIdx;`: the copy's implicit member reads have no text of their own. */
      if (builtin_is_seed(k, n) || builtin_is_rescaled(k, n) || n->bi == (thread ? BI_THREADIDX : BI_BLOCKIDX) ||
          n->bi == (thread ? BI_BLOCKDIM : BI_GRIDDIM))
        refuse(L, n->begin, "'%s' used as a whole: tfuse substitutes its components only; use %s.x/.y/.z",
               builtin_name(n->bi), builtin_name(n->bi));
      return;
    }
    if (n->in_macro && (builtin_is_seed(k, n) || builtin_is_rescaled(k, n) || n->bi_dim < 0))
      refuse(L, n->begin,
             "%s inside a macro expansion: tfuse rewrites source text and cannot reach it; "
             "expand the macro by hand", builtin_name(n->bi));
    return;
  case N_DECL_REF:
    if (n->sym && n->sym->kind == SYM_BUILTIN && !(n->parent && n->parent->kind == N_BUILTIN)) {
      const char *nm = n->sym->name;
      bool hit = (!thread && (!strcmp(nm, "blockIdx") || !strcmp(nm, "gridDim"))) ||
                 (thread && (!strcmp(nm, "threadIdx") || !strcmp(nm, "blockDim")));
      if (hit)
        refuse(L, n->begin, "'%s' used as a whole: tfuse substitutes its components only; use %s.x/.y/.z", nm,
               nm);
    } else if (n->sym && n->sym->lambda && !lambda_called_here(n)) {
      refuse(L, n->begin, "lambda '%s' used other than called (passed, copied, its address taken): each copy has "
             "its own closure, which tfuse follows only through calls `%s(...)`", n->sym->name, n->sym->name);
    } else if (n->sym && n->sym->varying && n->in_macro) {
      refuse(L, n->begin,
             "'%s' differs between the copies but is used inside a macro expansion that text rewriting "
             "cannot reach; expand the macro by hand", n->sym->name);
    } else if (n->sym && n->sym->kind == SYM_SHARED && n->sym->varying && !thread && n->sym->is_array) {
      if (!shared_address_followed(n))
        refuse(L, n->begin,
               "the address of __shared__ '%s' escapes; it must be replicated per logical block and "
               "tfuse cannot follow the pointer", n->sym->name);
    }
    break;
  case N_VAR:
    if (n->sym->varying && n->in_macro)
      refuse(L, n->loc, "'%s' differs between the copies but is declared inside a macro expansion", n->sym->name);
    if (n->sym->kind == SYM_LOCAL && n->sym->is_reference)
      refuse(L, n->loc, "local reference '%s' is not supported; use a pointer or a copy", n->sym->name);
    if (thread && n->sym->kind == SYM_SHARED && n->sym->is_volatile && !warps_kept(L)) {
      refuse(L, n->loc, "volatile __shared__ '%s' suggests warp-synchronous code, which thread mode would split"
             WARPS_KEPT_ONLY, n->sym->name);
      L->warp_shared_refused = true;
    }
    /* `volatile float *v = sdata;`: the same code through a view. */
    if (thread && n->sym->kind == SYM_LOCAL && n->sym->is_pointer && n->sym->is_volatile &&
        sym_views_shared(n->sym) && !warps_kept(L)) {
      refuse(L, n->loc, "volatile pointer '%s' into __shared__ memory suggests warp-synchronous code, which thread "
             "mode would split" WARPS_KEPT_ONLY, n->sym->name);
      L->warp_shared_refused = true;
    }
    break;
  case N_BINOP:
    if (lane_arithmetic(L, n) && !warps_kept(L))
      refuse(L, n->begin, "lane arithmetic on the thread index in thread mode: merging threads would "
                          "change which lanes form a warp" WARPS_KEPT_ONLY);
    break;
  case N_GOTO:
  case N_LABEL:
    refuse(L, n->begin, "goto and labels are not supported in a coarsened kernel");
    return;
  case N_ASM:
    refuse(L, n->begin, "inline assembly is not supported in a coarsened kernel: tfuse cannot see what it reads");
    return;
  case N_LAMBDA:
    if (!check_lambda(L, n))
      return;
    break;
  case N_IF:
  case N_SWITCH:
  case N_WHILE:
  case N_FOR:
  case N_DO:
    if (n->kind != N_IF && n->kind != N_SWITCH && loop_waits_on_memory(L, n))
      refuse(L, n->begin, "a loop that waits on memory other threads write (a spin-wait): merged into one thread, "
                          "a copy may wait for one that runs after it");
    if (n->kind == N_FOR || n->kind == N_DO)
      break;
    if (n->has_init_stmt || (n->cond && n->cond->kind == N_VAR) ||
        (n->cond && n->cond->kind == N_DECL_STMT))
      refuse(L, n->begin, "a declaration in a condition is not supported; declare the variable before");
    if (n->kind == N_SWITCH && !n->loop_varying && n->varying)
      refuse(L, n->begin, "a switch on a uniform value whose cases differ between the copies is not supported");
    break;
  default:
    break;
  }

  Node *saved = L->varying_ctl;
  bool view = n->kind == N_VAR && n->sym && n->sym->varying && sym_is_dyn_shared_view(n->sym);
  int checked = L->checked.len;
  if (view)
    L->in_view_init = true;
  for (int i = 0; i < n->nkid; i++) {
    Node *kid = n->kid[i];
    bool controlled = n->loop_varying && kid != n->cond && kid != n->init;
    if (n->loop_varying && n->kind == N_IF && kid == n->cond)
      controlled = false;
    if (controlled && !L->varying_ctl)
      L->varying_ctl = n;
    walk(L, kid);
    L->varying_ctl = saved;
  }
  if (view) {
    L->in_view_init = false;
    L->checked.len = checked; /* the helpers it calls are checked again where called otherwise */
  }
}

/* Block mode replicates a shared variable K times: the static total must
 * stay within the 48 KB a block may declare statically (CUDA programming
 * guide, "Shared Memory"), or ptxas rejects the output.  Refused here, with
 * the numbers, rather than written for nvcc to reject.  A size clang cannot
 * tell (a template's dependent type) is left to nvcc. */
static void check_static_shared(Legal *L) {
  Kernel *k = L->k;
  if (k->p.mode != MODE_BLOCK)
    return;
  Vec vars = {0};
  kernel_shared_vars(k->fn, &vars);
  long long total = 0, replicated = 0;
  Sym *largest = NULL;
  for (int i = 0; i < vars.len; i++) {
    Sym *s = vars.items[i];
    if (s->is_extern)
      continue; /* dynamic: not part of the static size */
    if (s->bytes < 0) {
      vec_free(&vars);
      return;
    }
    total += s->bytes * params_shared_replicas(&k->p, s);
    if (s->varying) {
      replicated += s->bytes;
      if (!largest || s->bytes > largest->bytes)
        largest = s;
    }
  }
  vec_free(&vars);
  const long long limit = 48 * 1024;
  if (largest && total > limit)
    refuse(L, largest->decl_off != ~0u ? largest->decl_off : k->fn->loc,
           "coarsened by %s, '%s' would declare %lld bytes of static __shared__ memory (%lld bytes replicated per "
           "logical block, '%s' the largest), over the %lld bytes a block may declare statically; use a smaller -factor",
           params_factor_text(&k->p), k->sym->name, total, replicated, largest->name, limit);
}

/* The function whose body declares the variable s, or NULL (file scope, or
 * outside the project's text). */
static Node *declaring_function(const Legal *L, const Sym *s) {
  if (s->decl_off == ~0u)
    return NULL;
  for (int i = 0; i < L->u->functions.len; i++) {
    Node *f = L->u->functions.items[i];
    if (f->begin <= s->decl_off && s->decl_off < f->end && f->end > f->begin)
      return f;
  }
  return NULL;
}

static bool body_declares(const Node *n, const Sym *s) {
  if (n->kind == N_VAR && n->sym == s)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (body_declares(n->kid[i], s))
      return true;
  return false;
}

/* The innermost node of n whose own evaluation (its callee, a default
 * argument, an implicit member), not a child's, names s. */
static Node *names_shared_at(Node *n, const Sym *s) {
  if (n->kind == N_VAR && n->sym && n->sym->varying && sym_is_dyn_shared_view(n->sym))
    return NULL; /* copy r's view is moved to share r (fuse.c) */
  for (int i = 0; i < n->nkid; i++) {
    Node *hit = names_shared_at(n->kid[i], s);
    if (hit)
      return hit;
  }
  if (n->kind != N_CALL && n->kind != N_VAR && n->kind != N_NEW)
    return NULL;
  Reads r = {0};
  reads_of(n, &r);
  bool hit = false;
  for (int i = 0; i < r.shared.len && !hit; i++)
    hit = r.shared.items[i] == s;
  reads_free(&r);
  return hit ? n : NULL;
}

/* Block mode replicates a shared variable per logical block by renaming the
 * kernel's own uses, and moves views of the dynamic shared memory (`T *s =
 * SharedMemory<T>();`, effects.c) to the copy's share.  One declared in
 * another function (a helper, a member function, a conversion operator,
 * `extern __shared__` or static) that the kernel reaches by another path,
 * an implicit call included, would keep one copy for all logical blocks:
 * refused, naming the function that declares it. */
static void check_outside_shared(Legal *L) {
  if (L->k->p.mode != MODE_BLOCK)
    return;
  Vec vars = {0}, sites = {0};
  kernel_shared_vars(L->k->fn, &vars);
  for (int i = 0; i < vars.len; i++) {
    Sym *s = vars.items[i];
    bool done = false;
    for (int j = 0; j < L->shared_refused.len && !done; j++)
      done = L->shared_refused.items[j] == s;
    Node *f = s->varying && !done ? declaring_function(L, s) : NULL;
    if (!f || f == L->k->fn || (L->k->fn->sym && f->sym == L->k->fn->sym) ||
        body_declares(L->k->fn->sym->body, s))
      continue; /* file scope, or the kernel's own (an extern array other kernels declare too) */
    Node *at = names_shared_at(L->k->fn->sym->body, s);
    if (!at && s->is_extern)
      continue; /* named only through dynamic shared views */
    bool again = false;
    for (int j = 0; j < sites.len && !again; j++)
      again = sites.items[j] == at;
    if (again)
      continue; /* one refusal per place (`SharedMemory<T>()` may run either conversion) */
    vec_push(&sites, at);
    refuse(L, at ? at->begin : L->k->fn->loc,
           "'%s' declares __shared__ '%s', which block mode must replicate per logical block, and the kernel reaches "
           "it %s; tfuse replicates only shared memory the kernel declares or names itself; declare it in the kernel "
           "(or pass it as an argument)", written_name(L, f), s->name,
           at && at->kind == N_CALL && (at->sym || at->cand) ? "through this call"
                                                              : "through code that runs without a call in the text");
  }
  vec_free(&vars);
  vec_free(&sites);
}

/* Whether the directive at p is `#if 0`, whose lines no compilation sees. */
static bool directive_is_if0(const Source *src, unsigned p) {
  const char *t = src->text;
  p++;
  while (p < src->len && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p + 2 >= src->len || strncmp(t + p, "if", 2) || (t[p + 2] != ' ' && t[p + 2] != '\t'))
    return false;
  for (p += 2; p < src->len && (t[p] == ' ' || t[p] == '\t');)
    p++;
  return p + 1 < src->len && t[p] == '0' && (t[p + 1] == '\n' || t[p + 1] == ' ' || t[p + 1] == '\t' ||
                                              t[p + 1] == '/');
}

/* Lines of the kernel's body the host-side parse skipped that the device
 * compilation may not (`#if __CUDA_ARCH__ >= 700`, an `#else`): tfuse
 * neither sees nor rewrites them, and fuse.c would copy them as they are,
 * reading the physical block.  Only `#if 0` is skipped by both. */
static void check_skipped_lines(Legal *L, const Node *body) {
  const Source *src = L->u->src;
  const char *t = src->text;
  unsigned dir = body->begin;
  bool have_dir = false;
  for (unsigned i = body->begin + 1; i < body->end && i < src->len; i++) {
    if (t[i - 1] != '\n')
      continue;
    unsigned p = i;
    while (p < body->end && (t[p] == ' ' || t[p] == '\t'))
      p++;
    if (p >= body->end || t[p] == '\n')
      continue;
    if (t[p] == '#') {
      dir = p;
      have_dir = true;
      unsigned w = p + 1;
      while (w < body->end && (t[w] == ' ' || t[w] == '\t'))
        w++;
      if (w + 7 <= src->len && !strncmp(t + w, "include", 7)) {
        /* The included file's statements are part of the body, but not of
         * its text, which is what tfuse writes out per copy (HeCBench
         * wsm5's `#include "constants.h"` of declarations and macros). */
        refuse(L, p, "an #include inside the kernel's body: the included statements are not in the kernel's text, "
                     "which tfuse rewrites; include the file before the kernel");
        return;
      }
      continue;
    }
    if (have_dir && unit_is_skipped(L->u, p) && !directive_is_if0(src, dir)) {
      refuse(L, dir, "part of the kernel's body is under a preprocessor condition the host-side parse skips "
                     "(__CUDA_ARCH__, say): tfuse cannot see or rewrite that code; write the kernel so both sides "
                     "see the same statements");
      return;
    }
  }
}

/* Whether n synchronises the whole grid: `grid.sync()`, `cg::sync(grid)`
 * (a grid_group's sync, by name and group type). */
static bool node_is_grid_sync(const Node *n) {
  if (n->kind != N_CALL || !n->sym || !sym_is_cooperative_groups(n->sym) || !n->sym->name ||
      strcmp(n->sym->name, "sync"))
    return false;
  Node *g = cg_group_operand(n);
  return g && g->cg_group == CG_GRID;
}

/* The first grid-wide synchronisation the kernel reaches, in its text or
 * through a helper (cuda-samples' conjugate gradient's PeerGroup::sync):
 * no coarsening keeps it (block mode would need the cooperative launch's
 * grid rescaled, thread mode the grid's threads), so it is the kernel's
 * reason, given before whatever else the walk would find. */
static bool check_grid_sync(Legal *L, Node *n) {
  if (node_is_grid_sync(n)) {
    refuse(L, n->begin, "cooperative groups ('sync'): grid-wide synchronisation: coarsening changes the grid, and "
           "tfuse does not rewrite cooperative launches");
    return true;
  }
  if (n->kind == N_CALL) {
    int count = n->sym ? 1 : n->ncand;
    for (int i = 0; i < count; i++) {
      Sym *fn = n->sym ? n->sym : n->cand[i];
      if (fn && !sym_is_cooperative_groups(fn) && fn_holds(fn, node_is_grid_sync)) {
        refuse(L, n->begin, "'%s' synchronises the whole grid (cooperative groups): coarsening changes the grid, "
               "and tfuse does not rewrite cooperative launches", fn->name);
        return true;
      }
    }
  }
  for (int i = 0; i < n->nkid; i++)
    if (check_grid_sync(L, n->kid[i]))
      return true;
  return false;
}

/* ---- the construct table ---- */

/* Walks n and the bodies of the functions it calls (each once, `seen`),
 * adding every row met to the kernel's census and refusing, at `site` (the
 * kernel's own node through which a helper was reached), a construct whose
 * row says REFUSE or that has no row.  Returns false at the first refusal. */
static bool constructs_rec(Legal *L, Node *n, Node *site, const char *helper, Vec *seen) {
  const Construct *c = construct_of(n);
  Node *at = site ? site : n;
  if (!c || c->rule == CONSTRUCT_REFUSE) {
    const char *name = c ? c->name : n->cursor_name ? n->cursor_name : "an unknown construct";
    const char *why = c ? c->model : "it has no row in tfuse's construct table";
    if (helper)
      refuse(L, at->begin, "'%s' in '%s', which the kernel calls, is not in tfuse's model of what it can coarsen: %s",
             name, helper, why);
    else
      refuse(L, at->begin, "'%s' is not in tfuse's model of what it can coarsen: %s", name, why);
    return false;
  }
  if (!vec_has_item(&L->k->constructs, (void *)c))
    vec_push(&L->k->constructs, (void *)c);
  if (n->kind == N_CALL && n->device_launch) {
    /* A launch in device code starts a grid of its own: not a call the
     * copies make, and not in the model. */
    const char *child = n->sym && n->sym->name ? n->sym->name : "a kernel";
    if (helper)
      refuse(L, at->begin, "'%s', which the kernel calls, launches '%s' from device code (dynamic parallelism), "
             "which tfuse does not coarsen", helper, child);
    else
      refuse(L, at->begin, "launches '%s' from device code (dynamic parallelism), which tfuse does not coarsen",
             child);
    return false;
  }
  if (n->kind == N_CALL) {
    int count = n->sym ? 1 : n->ncand;
    for (int i = 0; i < count; i++) {
      Sym *fn = n->sym ? n->sym : n->cand[i];
      if (!fn || fn_class(fn) != FN_BODY || !fn->body || vec_has_item(seen, fn))
        continue;
      vec_push(seen, fn);
      if (!constructs_rec(L, fn->body, site ? site : n, helper ? helper : fn->name, seen))
        return false;
    }
  }
  for (int i = 0; i < n->nkid; i++)
    if (!constructs_rec(L, n->kid[i], site, helper, seen))
      return false;
  return true;
}

/* Every construct the kernel reaches has a row of the table whose rule is
 * not REFUSE (passes/constructs.def); the rows met are the kernel's census
 * (-report-json). */
static void check_constructs(Legal *L) {
  Vec seen = {0};
  vec_push(&seen, L->k->fn->sym);
  L->k->constructs.len = 0;
  constructs_rec(L, L->k->fn->sym->body, NULL, NULL, &seen);
  vec_free(&seen);
}

/* Whether name is a function of the project's files (a helper whose call
 * the walk refuses with its own reason). */
static bool names_function(const Unit *u, const char *name) {
  for (int i = 0; i < u->functions.len; i++) {
    const Node *fn = u->functions.items[i];
    if (fn->sym && fn->sym->name && !strcmp(fn->sym->name, name))
      return true;
  }
  return false;
}

/* ---- threads that communicate through shared memory without a barrier ----
 *
 * Legacy warp-synchronous code (the unrolled last warp of a reduction, a
 * scan through `vs[tid - d]`) lets one thread read what another wrote with
 * no barrier between, relying on the warp's lanes running in step.  Thread
 * mode writes each statement once per copy, so a copy may read an element
 * another copy has already updated (consecutive mapping), or a logical warp
 * may span several copies (fewer than 32 threads per copy).  Such code is
 * warp-level: thread mode needs whole warps (warps_kept) or refuses.
 *
 * Found structurally, whatever the `volatile` keyword says: walking the
 * kernel's body in order (loops twice, for what one iteration writes and
 * the next reads; both branches of an `if` in turn), an access to shared
 * memory (an array of it, or a local pointer into it) that reads what an
 * earlier access of the same barrier interval (no __syncthreads(),
 * __syncwarp() or helper holding a barrier between) wrote, at an index
 * that differs between the copies and is written differently from the
 * write's (or through another name that may alias: a pointer into the
 * array).  A read of an element the thread itself wrote in the interval
 * (the same name and index, as written) reads back its own value in a
 * program free of races, whatever else was written.  A read at an index
 * the same for every copy is left alone: a copy then reads an element of
 * its own logical thread's row or one every copy reads alike, and the
 * statements around it are written copy after copy in the original's order
 * (Volkov's Gauss-Jordan, `A[y][x] /= A[i][i]` along y, stays accepted).
 * Not found: a read before the write in one statement (`vs[tid] +=
 * vs[tid + 1]` alone: the tree reduction's `sdata[tid] += sdata[tid + s]`
 * under its barrier has the same form), and accesses inside helpers (those
 * taking a pointer to volatile are refused by check_volatile_shared_arg). */

typedef struct {
  Sym *mem;       /* the shared array, or the local pointer into shared memory */
  Node *acc;      /* the outermost subscript */
  bool tdep;      /* an index differs between the copies */
} ShAccess;

typedef struct {
  const Source *src;
  Vec pending;    /* ShAccess*: writes since the last barrier */
  ShAccess *write, *read; /* the first communication found */
} CommWalk;


/* The access to shared memory that the outermost subscript n makes, or
 * false when it names no shared memory. */
static bool shared_access(Node *n, ShAccess *a) {
  if (n->kind != N_SUBSCRIPT)
    return false;
  Node *b = n;
  bool tdep = false;
  while (b && b->kind == N_SUBSCRIPT) {
    Node *ix = b->nkid > 1 ? b->kid[1] : NULL;
    tdep |= ix && (ix->varying || mentions_threadidx(ix));
    b = node_strip(b->kid[0]);
  }
  if (!b || b->kind != N_DECL_REF || !b->sym)
    return false;
  Sym *s = b->sym;
  if (s->kind != SYM_SHARED && !(s->kind == SYM_LOCAL && s->is_pointer && sym_views_shared(s)))
    return false;
  *a = (ShAccess){.mem = s, .acc = n, .tdep = tdep};
  return true;
}

/* Whether names a and b may reach the same shared memory. */
static bool shared_may_alias(const Sym *a, const Sym *b) {
  if (a == b)
    return true;
  if (a->kind == SYM_LOCAL && b->kind == SYM_LOCAL)
    return true; /* two views: conservatively the same memory */
  return sym_may_point_into(a, b) || sym_may_point_into(b, a);
}

/* Whether reading r may see what w, another thread's, wrote. */
static bool reads_other_thread(const ShAccess *wr, const ShAccess *r) {
  return r->tdep && shared_may_alias(wr->mem, r->mem);
}

/* A read through the subscript n: communication if a pending write may be
 * another thread's element, unless this thread wrote the element it names
 * (a pending write of the same name and index, as written): a program free
 * of races then reads back its own value. */
static void comm_read(CommWalk *w, Node *n) {
  ShAccess a;
  if (w->read || !shared_access(n, &a))
    return;
  for (int i = 0; i < w->pending.len; i++) {
    const ShAccess *p = w->pending.items[i];
    if (p->mem == a.mem && node_same_text(w->src, p->acc, a.acc))
      return;
  }
  for (int i = 0; i < w->pending.len; i++)
    if (reads_other_thread(w->pending.items[i], &a)) {
      w->write = w->pending.items[i];
      w->read = arena_alloc(sizeof *w->read);
      *w->read = a;
      return;
    }
}

/* A write through the subscript n: pending until the next barrier. */
static void comm_write(CommWalk *w, Node *n) {
  ShAccess a;
  if (!shared_access(n, &a))
    return;
  ShAccess *p = arena_alloc(sizeof *p);
  *p = a;
  vec_push(&w->pending, p);
}

static void comm_walk(CommWalk *w, Node *n);

/* The indices of the subscripts of lv (evaluated before the store). */
static void comm_indices(CommWalk *w, Node *lv) {
  Node *b = node_strip(lv);
  while (b && b->kind == N_SUBSCRIPT) {
    for (int i = 1; i < b->nkid; i++)
      comm_walk(w, b->kid[i]);
    b = node_strip(b->kid[0]);
  }
  if (b && b != node_strip(lv)) /* the base (`p[i]` of `get()[i]`), not a plain store's whole target */
    comm_walk(w, b);
  else if (b && b->kind != N_DECL_REF)
    comm_walk(w, b); /* `*p = v`, `s.f = v`: what it reads to find the target */
}

/* Walks n in evaluation order, loops twice, clearing the pending writes at each barrier. */
static void comm_walk(CommWalk *w, Node *n) {
  if (!n || w->read || n->kind == N_LAMBDA)
    return;
  if (n->kind == N_CALL && (node_is_barrier(n) || (n->sym && fn_holds_barrier(n->sym)) ||
                            (n->sym && n->sym->name && !strcmp(n->sym->name, "__syncwarp")))) {
    for (int i = 0; i < n->nkid; i++)
      comm_walk(w, n->kid[i]);
    w->pending.len = 0;
    return;
  }
  if ((n->kind == N_ASSIGN && n->nkid == 2) || (node_is_incdec(n) && n->nkid >= 1)) {
    Node *lv = n->kid[0];
    if (n->kind == N_ASSIGN)
      comm_walk(w, n->kid[1]);
    comm_indices(w, lv);
    Node *s = node_strip(lv);
    if (n->kind != N_ASSIGN || n->op != OP_ASSIGN)
      comm_read(w, s);
    comm_write(w, s);
    return;
  }
  if (n->kind == N_SUBSCRIPT) {
    comm_indices(w, n);
    comm_read(w, n);
    return;
  }
  int passes = n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO ? 2 : 1;
  for (int p = 0; p < passes; p++)
    for (int i = 0; i < n->nkid; i++)
      comm_walk(w, n->kid[i]);
}

/* Thread mode: shared memory one thread writes and another reads with no
 * barrier between is warp-level code: accepted with whole warps only. */
static void check_shared_communication(Legal *L) {
  if (L->k->p.mode != MODE_THREAD || L->warp_shared_refused)
    return;
  CommWalk w = {.src = L->u->src};
  comm_walk(&w, L->k->fn->sym->body);
  if (w.read && !warps_kept(L)) {
    refuse(L, w.read->acc->begin, "'%s' is read here where another thread may have written it (%s) with no barrier "
           "between: threads that communicate through shared memory without __syncthreads() are warp-synchronous "
           "code, which thread mode would split" WARPS_KEPT_ONLY, w.read->mem->name, line_of(L->u, w.write->acc->begin));
  }
  vec_free(&w.pending);
}

bool legality_check(Unit *u, Kernel *k) {
  Legal L = {.u = u, .k = k, .ok = true};
  k->copy_tail = NULL;
  if (check_grid_sync(&L, k->fn->sym->body))
    return false;
  /* The kernel's own text reaches what the device defines differently (a
   * macro, a variable, a type: not a helper's call, refused by the walk
   * with its reason): the host's reading is not the device's, so what the
   * walk would find in it (a builtin in a macro the host's reading leaves
   * unexpanded) is no reason of the kernel's; this one is. */
  Sym *ks = k->fn->sym;
  /* Block mode (and -factor auto's variants) change the kernel's
   * signature: every declaration must be rewritten, and one in a file
   * tfuse does not write (a header outside the root) would keep the old
   * one (nvcc: "too many arguments" where it is used). */
  if (!ks->in_main_file && !ks->in_system_header && (k->p.mode == MODE_BLOCK || k->p.factor == FACTOR_AUTO)) {
    refuse(&L, k->fn->loc, "'%s' is first declared in a file tfuse does not rewrite (a header outside the root, "
           "-root): that declaration would keep the signature block mode changes; pass -root a folder that holds "
           "it", ks->name);
    return false;
  }
  if (ks->arch_dependent && ks->arch_name && !names_function(u, ks->arch_name)) {
    refuse(&L, ks->arch_use, "'%s' (%s) is, or uses, what the device compilation defines differently from the "
           "host side tfuse reads: the kernel's reading may be wrong", ks->arch_name, arch_place(L.u, ks));
    return false;
  }
  k->copy_tail = copy_tail_of(&L);
  check_skipped_lines(&L, k->fn->sym->body);
  check_constructs(&L);
  walk(&L, k->fn->sym->body);
  check_shared_communication(&L);
  check_outside_shared(&L);
  check_static_shared(&L);
  /* The kernel names what the device defines differently (target.c): a
   * call of a helper that does was refused above, with its reason; else
   * the name is the kernel's own (a specialization the host does not
   * see). */
  if (L.ok && ks->arch_dependent) {
    if (ks->arch_name)
      refuse(&L, ks->arch_use, "'%s' (%s) is, or uses, what the device compilation defines differently from the "
             "host side tfuse reads: the kernel's reading may be wrong", ks->arch_name, arch_place(L.u, ks));
    else
      refuse(&L, k->fn->begin, "the kernel's text tests the compilation target (__CUDA_ARCH__, NV_IF_TARGET) or is "
             "compiled differently on the device: tfuse parses the host side and cannot see the device's code");
  }
  vec_free(&L.stack);
  vec_free(&L.checked);
  vec_free(&L.shared_refused);
  return L.ok;
}
