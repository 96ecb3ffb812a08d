/* legality_base: what every check of legality uses: refuse() (a located
 * error, the kernel marked refused), the builtin names, and the small
 * predicates about threads, warps, lanes, helpers that read a changed
 * builtin (clone_obstacle), default arguments and collectives. */
#include "passes.h"
#include "legality_int.h"
#include <stdarg.h>
#include <string.h>

void refuse(Legal *L, unsigned off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(off, fmt, ap);
  va_end(ap);
  L->ok = false;
}

const char *builtin_name(Builtin b) {
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
bool mentions_threadidx(const Node *n) {
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
bool warps_kept(Legal *L) {
  Kernel *k = L->k;
  bool x_alone = params_multi(&k->p) ? k->p.kd[0] > 1 && k->p.kd[1] == 1 && k->p.kd[2] == 1 : k->p.dim == 0;
  if (k->p.mode != MODE_THREAD || k->p.mapping != MAP_STRIDE || !x_alone)
    return false;
  k->whole_warps = true;
  return true;
}

static bool is_lane_constant(const Node *n) {
  n = node_strip((Node *)n);
  if (n->kind == N_DECL_REF && n->sym && n->sym->name && !strcmp(n->sym->name, "warpSize"))
    return true;
  return false;
}

/* What a device function does that coarsening cannot follow. */

/* Where the kernel's text starts (its pragma, if annotated): clones of
 * helpers are inserted there. */
static unsigned kernel_start(const Kernel *k) { return k->annotated ? k->pragma_off : k->fn->begin; }

/* Why a helper that reads a changed builtin cannot be cloned per copy, or
 * NULL when fuse.c can emit its clone (its text is the project's, seen
 * before the kernel, and it is a free function). */
const char *clone_obstacle(const Legal *L, const Sym *fn, const Node *bi) {
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
const char *changed_read_name(const Kernel *k, const Reads *r) {
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
void check_defaults(Legal *L, Node *site, Node *call, Sym *in) {
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
bool lane_arithmetic(const Legal *L, const Node *n) {
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
const char *written_name(const Legal *L, const Node *f) {
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
void check_helper_asm(Legal *L, Node *call, Sym *fn, Node *a) {
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
bool is_callee_ref(Node *n) {
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
bool cg_operators_known(Legal *L, const Node *call) {
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

/* Whether `n` runs after a `return` that only some copies take: a varying
 * return earlier in an enclosing block, or anywhere in an enclosing loop. */
bool after_varying_return(const Node *n) {
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

/* Where the target defines a name (Sym.arch_at): file and line. */
const char *line_of(const Unit *u, unsigned off) {
  if (off == ~0u)
    return "in a header that only one of the host and device compilations includes";
  const char *path;
  int line, col;
  source_locate(u->src, off, &path, &line, &col);
  return arena_printf("%s:%d", path, line);
}
