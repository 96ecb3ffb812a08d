/* reads: what code may read of the thread's coordinates and of shared
 * memory, and what pointer locals may point into.
 *
 * Contract: reads_of(n) says which builtins (threadIdx, blockIdx, their
 * extents) and which registers and shared variables an expression or
 * statement may read, through helpers, lambdas, cooperative groups and
 * views of dynamic shared memory (a pointer made from `extern __shared__`
 * memory is a view of it); reads_changed says whether that differs
 * between the copies of a kernel.  The points-to sets of pointer locals
 * (flow-insensitive over all their definitions, effects_prepare runs them)
 * are computed here too: a pointer whose origin is not followed points to
 * `unknown`. */
#include "passes.h"
#include "effects_int.h"
#include <string.h>

/* ---- the kernel's shared variables ---- */

/* Whether fn was visited before in this walk (and marks it visited): each
 * walk over the helpers a call reaches visits each helper once. */
static bool visited(Vec *seen, Sym *fn) {
  for (int i = 0; i < seen->len; i++)
    if (seen->items[i] == fn)
      return true;
  vec_push(seen, fn);
  return false;
}

void kernel_shared_vars(Node *fn, Vec *out) {
  /* Every path by which the kernel may name one: its body, its helpers',
   * default arguments, implicit members (the reads model). */
  Reads r = {0};
  reads_of(fn, &r);
  for (int i = 0; i < r.shared.len; i++)
    add_sym(out, r.shared.items[i]);
  reads_free(&r);
}

static bool holds_rec(const Node *n, bool (*hit)(const Node *), Vec *seen) {
  if (hit(n))
    return true;
  if (n->kind == N_CALL) {
    int count = n->sym ? 1 : n->ncand;
    for (int i = 0; i < count; i++) {
      Sym *fn = n->sym ? n->sym : n->cand[i];
      if (fn && fn_class(fn) == FN_BODY && !visited(seen, fn) && holds_rec(fn->body, hit, seen))
        return true;
    }
  }
  for (int i = 0; i < n->nkid; i++)
    if (holds_rec(n->kid[i], hit, seen))
      return true;
  return false;
}

bool fn_holds(const Sym *fn, bool (*hit)(const Node *)) {
  if (!fn || fn_class(fn) != FN_BODY)
    return false;
  Vec seen = {0};
  vec_push(&seen, (void *)fn);
  bool r = holds_rec(fn->body, hit, &seen);
  vec_free(&seen);
  return r;
}

bool node_holds(const Node *n, bool (*hit)(const Node *)) {
  Vec seen = {0};
  bool r = holds_rec(n, hit, &seen);
  vec_free(&seen);
  return r;
}

bool fn_holds_barrier(const Sym *fn) { return fn_holds(fn, node_is_barrier); }

/* ---- reads: the coordinates and shared memory code may read ----
 *
 * The other half of the model: decisions that renumber or replicate (clone
 * a helper, spell a default argument per copy, replicate shared memory,
 * refuse) ask what code may *read* of the thread's coordinates, and which
 * shared variables it may name, by every path C++ reaches code:
 *   blockIdx.x, gridDim.y, `blockIdx` as a whole      the builtin(s)
 *   helper(...)                                       what its body reads (cached)
 *   gid()  with `int b = blockIdx.x` as a default     the default, at the call
 *   obj.f(), a + b on a class, `T *p = S<T>()`        the member or operator called
 *   a construction tfuse cannot resolve (`S<T>()`)    every constructor, conversion
 *                                                     and destructor of the project
 *   a local of class type, new/delete                 every destructor of the project
 *   asm("mov.u32 %0, %%ctaid.x;" ...)                 the special registers named
 * Reads through assembly and implicit calls are `fixed`: no rewrite of the
 * text reaches them.  A call tfuse cannot see, an assembly template that is
 * not literal text, is `everything`. */

static const Unit *rd_unit;        /* the unit of the kernel being analysed (effects_prepare) */
static Vec rd_views;               /* Sym*: its dynamic shared views (sym_is_dyn_shared_view) */
static Reads rd_implicit[3];       /* by ImplicitKind: what the project's implicit members read */
static bool rd_implicit_busy;

typedef struct {
  Reads r;
  bool busy;
} ReadSummary;

static void reads_everything(Reads *r, unsigned at, const char *why) {
  if (!r->everything) {
    r->everything = true;
    r->why_at = at;
    r->why = why;
  }
}

static void reads_merge(Reads *into, const Reads *from, bool fixed) {
  if (fixed)
    into->fixed_bi |= from->bi | from->fixed_bi;
  else {
    into->bi |= from->bi;
    into->fixed_bi |= from->fixed_bi;
  }
  into->regs |= from->regs;
  for (int i = 0; i < from->shared.len; i++)
    add_sym(&into->shared, from->shared.items[i]);
  if (from->everything)
    reads_everything(into, from->why_at, from->why);
}

void reads_free(Reads *r) { vec_free(&r->shared); }

/* PTX's special registers (PTX ISA, "Special Registers") by prefix, and
 * what each is to tfuse: a builtin (its RD_BI bits, along the dimension
 * the suffix names, all three without one), a register class, or nothing
 * coarsening changes (0: %smid, %clock, %globaltimer, %envreg, %gridid...). */
typedef struct {
  const char *name;
  int bi;        /* Builtin, or 0 */
  unsigned regs; /* RD_REG_* */
} SpecialReg;

static const SpecialReg special_regs[] = {
    {"tid", BI_THREADIDX, 0}, {"ntid", BI_BLOCKDIM, 0}, {"ctaid", BI_BLOCKIDX, 0}, {"nctaid", BI_GRIDDIM, 0},
    {"laneid", 0, RD_REG_LANE}, {"lanemask_", 0, RD_REG_LANE}, {"warpid", 0, RD_REG_WARP},
    {"nwarpid", 0, RD_REG_WARP}, {"total_smem_size", 0, RD_REG_SMEM}, {"dynamic_smem_size", 0, RD_REG_SMEM},
    {"aggr_smem_size", 0, RD_REG_SMEM}, {"reserved_smem_", 0, RD_REG_SMEM}, {"cluster", 0, RD_REG_CLUSTER},
    {"nclusterid", 0, RD_REG_CLUSTER}, {"is_explicit_cluster", 0, RD_REG_CLUSTER},
    {"smid", 0, 0}, {"nsmid", 0, 0}, {"gridid", 0, 0}, {"clock", 0, 0}, {"globaltimer", 0, 0},
    {"pm", 0, 0}, {"envreg", 0, 0}, {"current_graph_exec", 0, 0},
};

/* Instructions that synchronise the block or the warp (PTX mnemonics, up
 * to their first `.`). */
static const char *const barrier_insns[] = {"bar", "barrier", NULL};
static const char *const warp_insns[] = {"shfl", "vote", "match", "redux", "activemask", "elect", "wmma",
                                         "mma", "wgmma", "ldmatrix", "stmatrix", "movmatrix", NULL};

static bool word_in(const char *w, size_t n, const char *const *list) {
  for (int i = 0; list[i]; i++)
    if (strlen(list[i]) == n && !strncmp(w, list[i], n))
      return true;
  return false;
}

/* Scans one assembly template (the strings' contents, concatenated). */
static void scan_asm_template(const char *t, size_t len, Reads *r, const char **reg) {
  bool stmt_start = true;
  for (size_t i = 0; i < len; i++) {
    char c = t[i];
    if (c == ';' || c == '{' || c == '}' || c == '\n') {
      stmt_start = true;
      continue;
    }
    if (c == '%') {
      while (i < len && t[i] == '%')
        i++;
      size_t b = i;
      while (i < len && (ident_char(t[i]) || t[i] == '.'))
        i++;
      if (b == i || (t[b] >= '0' && t[b] <= '9'))
        continue; /* an operand, %0 */
      const char *name = t + b;
      size_t n = i - b;
      i--;
      for (size_t j = 0; j < sizeof special_regs / sizeof special_regs[0]; j++) {
        const SpecialReg *s = &special_regs[j];
        size_t sl = strlen(s->name);
        bool prefix = s->name[sl - 1] == '_' || !strcmp(s->name, "cluster") || !strcmp(s->name, "pm") ||
                      !strcmp(s->name, "envreg") || !strcmp(s->name, "clock") || !strcmp(s->name, "globaltimer");
        size_t base = 0;
        while (base < n && name[base] != '.')
          base++;
        if (!(prefix ? base >= sl && !strncmp(name, s->name, sl) : base == sl && !strncmp(name, s->name, sl)))
          continue;
        unsigned before_bi = r->fixed_bi, before_regs = r->regs;
        if (s->bi) {
          int d = base + 2 == n && name[base + 1] >= 'x' && name[base + 1] <= 'z' ? name[base + 1] - 'x' : -1;
          r->fixed_bi |= d >= 0 ? RD_BI(s->bi, d) : RD_BI_ALL(s->bi);
        }
        r->regs |= s->regs;
        if (reg && !*reg && (r->fixed_bi != before_bi || r->regs != before_regs))
          *reg = arena_printf("%%%.*s", (int)n, name);
        break;
      }
      stmt_start = false;
      continue;
    }
    if (stmt_start && (ident_char(c) || c == '@')) {
      /* An instruction (after an optional guard predicate `@p`). */
      if (c == '@') {
        while (i < len && !(t[i] == ' ' || t[i] == '\t'))
          i++;
        continue;
      }
      size_t b = i;
      while (i < len && ident_char(t[i]))
        i++;
      bool label = i < len && t[i] == ':';
      if (!label) {
        unsigned add = word_in(t + b, i - b, barrier_insns) ? RD_ASM_BARRIER
                       : word_in(t + b, i - b, warp_insns)  ? RD_ASM_WARP
                                                            : 0;
        if (add && reg && !(r->regs & add) && !*reg)
          *reg = arena_strndup(t + b, i - b);
        r->regs |= add;
        stmt_start = false;
      }
      i--;
      continue;
    }
    if (c != ' ' && c != '\t' && c != '\r' && c != '\\')
      stmt_start = false;
  }
}

bool reads_of_asm(Node *a, Reads *r, const char **reg) {
  const Source *src = rd_unit ? rd_unit->src : NULL;
  if (!src || a->end <= a->begin || a->end > src->len || a->in_macro) {
    reads_everything(r, a->begin, "inline assembly whose text tfuse cannot read");
    return false;
  }
  /* asm [volatile|goto|inline]* ( "template" "..." : operands ) */
  const char *t = src->text;
  unsigned p = a->begin;
  while (p < a->end && t[p] != '(')
    p++;
  Buf tmpl = {0};
  bool ok = p < a->end;
  for (p = p + 1; ok && p < a->end;) {
    p = source_skip_space(src, p);
    if (p >= a->end || t[p] == ':' || t[p] == ')')
      break;
    if (t[p] != '"') {
      ok = false; /* a macro or an expression: not literal text */
      break;
    }
    for (p++; p < a->end && t[p] != '"'; p++) {
      if (t[p] == '\\' && p + 1 < a->end) {
        p++;
        buf_add(&tmpl, t[p] == 'n' || t[p] == 't' ? "\n" : t + p, 1);
        continue;
      }
      buf_add(&tmpl, t + p, 1);
    }
    p++;
  }
  if (ok)
    scan_asm_template(tmpl.data ? tmpl.data : "", tmpl.len, r, reg);
  else
    reads_everything(r, a->begin, "inline assembly whose template is not literal text (a macro?)");
  buf_free(&tmpl);
  return ok;
}

/* The default expression among a parameter's children: after its name and `=`. */
static Node *param_default_expr(Node *param) {
  if (!param->sym || param->nkid == 0)
    return NULL;
  Node *last = param->kid[param->nkid - 1];
  if (last->kind == N_TYPE_REF || last->kind == N_OTHER)
    return NULL;
  if (!rd_unit || param->end <= param->begin)
    return last; /* a header's: no text to check, the last child is the default */
  const char *t = rd_unit->src->text;
  for (unsigned i = param->loc; i < last->begin && i < rd_unit->src->len; i++)
    if (t[i] == '=')
      return last;
  return NULL;
}

static Node *decl_param_default(Node *decl, int i) {
  int at = 0;
  for (int j = 0; decl && j < decl->nkid; j++)
    if (decl->kid[j]->kind == N_PARAM && at++ == i)
      return param_default_expr(decl->kid[j]);
  return NULL;
}

Node *fn_param_default(Sym *fn, int i) {
  Node *d = decl_param_default(fn->fn_decl, i);
  for (int j = 0; !d && rd_unit && j < rd_unit->fn_decls.len; j++) {
    Node *decl = rd_unit->fn_decls.items[j];
    if (decl->sym == fn)
      d = decl_param_default(decl, i);
  }
  return d;
}

void reads_of_defaults(Node *call, Reads *r, Vec *defs) {
  int count = call->sym ? 1 : call->ncand;
  for (int c = 0; c < count; c++) {
    Sym *fn = call->sym ? call->sym : call->cand[c];
    if (!fn || fn->kind != SYM_FUNC || fn_is_known(fn))
      continue; /* CUDA's own defaults (`width = warpSize`) read nothing coarsening changes */
    Node *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(call, &obj, &obj_ptr, &args);
    for (int i = 0; i < args.len; i++) {
      if (!arg_is_default(args.items[i]))
        continue;
      Node *d = fn_param_default(fn, i);
      if (d)
        reads_of(d, r);
      else if (!fn->in_system_header)
        reads_everything(r, call->begin, arena_printf("a default argument of '%s' tfuse cannot find", fn->name));
      if (defs)
        vec_push(defs, d);
    }
    vec_free(&args);
  }
}

static bool is_destructor(const Sym *fn) { return fn->name && fn->name[0] == '~'; }

/* `operator int *`, `operator T *`: a conversion (an operator's name is a symbol, new, delete). */
static bool is_conversion(const Sym *fn) {
  const char *n = fn->name;
  if (!n || strncmp(n, "operator ", 9))
    return false;
  n += 9;
  return (ident_char(*n) && !(*n >= '0' && *n <= '9')) && strncmp(n, "new", 3) && strncmp(n, "delete", 6) &&
         strncmp(n, "co_await", 8);
}

/* Whether fn is one of the members an implicit call of kind ik may run:
 * destructors; constructors and destructors (an object of a class tfuse
 * cannot tell); conversions too (a construction used as a value). */
static bool implicit_member(const Sym *fn, ImplicitKind ik) {
  if (!fn || fn->kind != SYM_FUNC || !fn->body)
    return false;
  return is_destructor(fn) || (ik >= IMPL_OBJECT && fn->is_ctor) || (ik == IMPL_ANY && is_conversion(fn));
}

/* The reads of the project's functions that run without a call in the text. */
static void implicit_reads(Reads *r, ImplicitKind ik, unsigned at) {
  if (rd_implicit_busy)
    return;
  Reads *from = &rd_implicit[ik];
  if (from->bi || from->fixed_bi || from->regs || from->shared.len || from->everything) {
    reads_merge(r, from, true);
    if (!r->why && (from->bi || from->fixed_bi || from->everything)) {
      r->why_at = at;
      r->why = ik == IMPL_DTOR ? "an object whose destructor may run here: a destructor of the project reads it"
                               : "an object whose class tfuse cannot tell: a constructor, conversion or destructor "
                                 "of the project reads it";
    }
  }
}

static void prepare_implicit(void) {
  for (int ik = 0; ik < 3; ik++) {
    reads_free(&rd_implicit[ik]);
    rd_implicit[ik] = (Reads){0};
  }
  if (!rd_unit)
    return;
  rd_implicit_busy = true;
  for (int i = 0; i < rd_unit->functions.len; i++) {
    Sym *fn = ((Node *)rd_unit->functions.items[i])->sym;
    if (!implicit_member(fn, IMPL_ANY))
      continue;
    Reads one = {0};
    reads_of_fn(fn, &one);
    for (int ik = 0; ik < 3; ik++)
      if (implicit_member(fn, (ImplicitKind)ik))
        reads_merge(&rd_implicit[ik], &one, false);
    reads_free(&one);
  }
  rd_implicit_busy = false;
}

/* A variable whose type is written with a name (a class, a typedef): its
 * destructor, if it has one, runs at the end of its scope. */
static bool var_may_destroy(const Node *v) {
  if (!v->sym || v->sym->is_pointer || v->sym->is_reference || v->sym->kind == SYM_PARAM || v->sym->is_scalar ||
      (v->sym->is_array && v->sym->elem_scalar))
    return false; /* `uint tid` through a typedef: no class, no destructor */
  for (int i = 0; i < v->nkid; i++)
    if (v->kid[i]->kind == N_TYPE_REF)
      return true;
  return v->sym->type_dependent;
}

static void reads_of_call(Node *call, Reads *r) {
  if (call->is_launch || call_lambda(call))
    return; /* a lambda's body is read where it is written */
  if (node_is_barrier(call))
    return;
  reads_of_defaults(call, r, NULL);
  if (call->sym && call->sym->kind == SYM_FUNC) {
    reads_of_fn(call->sym, r);
    if (call->sym->is_ctor)
      implicit_reads(r, IMPL_DTOR, call->begin); /* a temporary's destructor */
    return;
  }
  if (!call->sym && call->cand) {
    for (int i = 0; i < call->ncand; i++)
      reads_of_fn(call->cand[i], r);
    if (!call->ncand)
      reads_everything(r, call->begin, "a call that no declaration before the template names");
    return;
  }
  if (!call->sym && call_is_construct(call) && call->cg_construct) {
    /* `cg::plus<T>()`: a class of cooperative groups' (an operator, a
     * handle), read as their functions are (reads_of_fn). */
    r->fixed_bi |= RD_BI_ALL(BI_THREADIDX) | RD_BI_ALL(BI_BLOCKDIM);
    r->regs |= RD_REG_LANE;
    return;
  }
  if (!call->sym && call_is_construct(call)) {
    implicit_reads(r, IMPL_ANY, call->begin); /* `S<T>()`, `T(x)`: which class, tfuse cannot tell */
    return;
  }
  reads_everything(r, call->begin, "a call through a pointer or of a dependent member");
}

void reads_of(Node *n, Reads *r) {
  if (!n)
    return;
  switch (n->kind) {
  case N_BUILTIN:
    if (n->bi != BI_NONE)
      r->bi |= n->bi_dim >= 0 ? RD_BI(n->bi, n->bi_dim) : RD_BI_ALL(n->bi);
    return;
  case N_DECL_REF:
    if (n->sym && n->sym->kind == SYM_BUILTIN && !(n->parent && n->parent->kind == N_BUILTIN)) {
      const char *nm = n->sym->name;
      int b = !strcmp(nm, "threadIdx") ? BI_THREADIDX : !strcmp(nm, "blockIdx") ? BI_BLOCKIDX
              : !strcmp(nm, "blockDim") ? BI_BLOCKDIM : !strcmp(nm, "gridDim") ? BI_GRIDDIM : 0;
      if (b)
        r->bi |= RD_BI_ALL(b); /* `blockIdx` as a whole */
    }
    if (n->sym && n->sym->kind == SYM_SHARED)
      add_sym(&r->shared, n->sym);
    break;
  case N_VAR:
    if (n->sym && n->sym->kind == SYM_SHARED)
      add_sym(&r->shared, n->sym);
    reads_implicit(n, r);
    break;
  case N_ASM:
    reads_of_asm(n, r, NULL);
    break;
  case N_NEW:
    reads_implicit(n, r); /* delete runs a destructor */
    break;
  case N_CALL:
    reads_of_call(n, r);
    break;
  default:
    break;
  }
  for (int i = 0; i < n->nkid; i++)
    reads_of(n->kid[i], r);
}

/* A function's code: its body, and a constructor's member initializers
 * (children of the definition beside the body; parameters' defaults are
 * the caller's). */
static void reads_of_fn_code(Sym *fn, Reads *r) {
  Node *d = fn->fn_decl;
  if (!d || fn->body->parent != d) {
    reads_of(fn->body, r);
    return;
  }
  for (int i = 0; i < d->nkid; i++)
    if (d->kid[i]->kind != N_PARAM && d->kid[i]->kind != N_TYPE_REF)
      reads_of(d->kid[i], r);
}

ImplicitKind implicit_kind(const Node *n) {
  if (n->kind == N_VAR && var_may_destroy(n))
    return n->sym->type_dependent ? IMPL_OBJECT : IMPL_DTOR;
  if (n->kind == N_NEW)
    return IMPL_DTOR;
  if (n->kind == N_CALL && !n->sym && !n->cand && call_is_construct(n) && !n->cg_construct)
    return IMPL_ANY;
  if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC && n->sym->is_ctor)
    return IMPL_DTOR;
  return IMPL_NONE;
}

void reads_implicit(Node *n, Reads *r) {
  ImplicitKind ik = implicit_kind(n);
  if (ik != IMPL_NONE)
    implicit_reads(r, ik, n->kind == N_VAR ? n->loc : n->begin);
}

Sym *implicit_reader(const Kernel *k, ImplicitKind ik) {
  for (int i = 0; rd_unit && ik != IMPL_NONE && i < rd_unit->functions.len; i++) {
    Sym *fn = ((Node *)rd_unit->functions.items[i])->sym;
    if (!implicit_member(fn, ik))
      continue;
    Reads one = {0};
    reads_of_fn(fn, &one);
    bool changed = reads_changed(k, &one);
    reads_free(&one);
    if (changed)
      return fn;
  }
  return NULL;
}

void reads_of_fn(Sym *fn, Reads *r) {
  if (!fn || fn->kind != SYM_FUNC)
    return;
  if (sym_is_cooperative_groups(fn) && fn_class(fn) != FN_COOPERATIVE) {
    /* The place in the block or warp: legality leaves in only what reads
     * no block index (check_cg), but for the grid's queries, which fuse.c
     * renumbers in the kernel's own text. */
    r->fixed_bi |= RD_BI_ALL(BI_THREADIDX) | RD_BI_ALL(BI_BLOCKDIM);
    if (cg_is_grid_query(fn))
      r->fixed_bi |= RD_BI_ALL(BI_BLOCKIDX) | RD_BI_ALL(BI_GRIDDIM);
    r->regs |= RD_REG_LANE;
    return;
  }
  switch (fn_class(fn)) {
  case FN_BODY:
    break;
  case FN_UNKNOWN:
  case FN_UNSUPPORTED:
    reads_everything(r, fn->decl_off, arena_printf("'%s', whose body tfuse cannot see", fn->name));
    return;
  case FN_COOPERATIVE:
    r->fixed_bi |= RD_BI_ALL(BI_THREADIDX) | RD_BI_ALL(BI_BLOCKIDX) | RD_BI_ALL(BI_BLOCKDIM) |
                   RD_BI_ALL(BI_GRIDDIM); /* its queries read every coordinate */
    return;
  case FN_WARP:
    r->regs |= RD_REG_LANE;
    return;
  default:
    return; /* the table's functions read their arguments only */
  }
  ReadSummary *sm = fn->rd_summary;
  if (sm && sm->busy) {
    reads_everything(r, fn->decl_off, arena_printf("'%s', which calls itself", fn->name));
    return;
  }
  if (!sm) {
    sm = arena_alloc(sizeof *sm);
    fn->rd_summary = sm;
    sm->busy = true;
    reads_of_fn_code(fn, &sm->r);
    sm->busy = false;
  }
  reads_merge(r, &sm->r, false);
}

/* ---- views of dynamic shared memory ----
 *
 * `T *sdata = SharedMemory<T>();` (cuda-samples): a local pointer of the
 * kernel whose initializer reaches `extern __shared__` memory only through
 * a call (a conversion operator, a helper returning it), reads nothing the
 * coarsening changes and writes nothing, and which nothing else assigns.
 * All extern shared arrays alias the block's dynamic shared memory, so the
 * pointer lies in it; block mode gives copy r the pointer moved by r shares
 * (fuse.c), as it does a kernel's own extern array.  effects.c then points
 * it at those arrays, not at `unknown`. */

static bool names_shared_directly(const Node *n) {
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_SHARED)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (names_shared_directly(n->kid[i]))
      return true;
  return false;
}

static bool written_in(const Node *n, const Sym *s) {
  if ((n->kind == N_ASSIGN || node_is_incdec(n)) && n->nkid) {
    const Node *l = strip_implicit(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym == s)
      return true;
  }
  if (n->kind == N_UNOP && n->op == OP_ADDR && n->nkid) {
    const Node *l = strip_implicit(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym == s)
      return true;
  }
  if (n->kind == N_CALL && n->sym && n->sym->ref_params) { /* passed by non-const reference */
    Node *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(n, &obj, &obj_ptr, &args);
    bool hit = false;
    for (int i = 0; i < args.len && i < 32 && !hit; i++) {
      const Node *a = strip_implicit(args.items[i]);
      hit = (n->sym->ref_params >> i & 1) && a && a->kind == N_DECL_REF && a->sym == s;
    }
    vec_free(&args);
    if (hit)
      return true;
  }
  for (int i = 0; i < n->nkid; i++)
    if (written_in(n->kid[i], s))
      return true;
  return false;
}

static bool view_candidate(const Kernel *k, Node *var) {
  Sym *s = var->sym;
  if (k->p.mode != MODE_BLOCK || !s || s->kind != SYM_LOCAL || !holds_pointer(s) || s->is_reference)
    return false;
  Node *init = var_init(var);
  if (!init || names_shared_directly(init))
    return false;
  Reads r = {0};
  reads_of(init, &r);
  bool ok = r.shared.len > 0 && !reads_changed(k, &r) && !r.everything;
  for (int i = 0; ok && i < r.shared.len; i++)
    ok = ((Sym *)r.shared.items[i])->is_extern;
  reads_free(&r);
  return ok && !node_effects_beyond_locals(init) && !written_in(k->fn->sym->body, s);
}

static void find_views(const Kernel *k, Node *n) {
  if (n->kind == N_VAR && view_candidate(k, n))
    add_sym(&rd_views, n->sym);
  for (int i = 0; i < n->nkid; i++)
    find_views(k, n->kid[i]);
}

bool sym_is_dyn_shared_view(const Sym *s) {
  for (int i = 0; s && i < rd_views.len; i++)
    if (rd_views.items[i] == s)
      return true;
  return false;
}

bool dyn_view_varying(const Sym *s) {
  if (!sym_is_dyn_shared_view(s) || !s->pts)
    return false;
  for (int i = 0; i < s->pts->syms.len; i++)
    if (((Sym *)s->pts->syms.items[i])->varying)
      return true;
  return false;
}

/* Whether the pointer local p may point into the variable v (its
 * points-to set, flow-insensitive). */
bool sym_may_point_into(const Sym *p, const Sym *v) {
  return p && p->pts && has_sym(&p->pts->syms, v);
}

/* Whether the pointer local p may point into some __shared__ variable. */
bool sym_views_shared(const Sym *p) {
  for (int i = 0; p && p->pts && i < p->pts->syms.len; i++)
    if (((Sym *)p->pts->syms.items[i])->kind == SYM_SHARED)
      return true;
  return false;
}

unsigned reads_changed_bi(const Kernel *k) {
  unsigned m = 0;
  for (int d = 0; d < 3; d++) {
    bool coarsened = params_multi(&k->p) ? k->p.kd[d] > 1 : d == k->p.dim;
    if (!coarsened)
      continue;
    if (k->p.mode == MODE_BLOCK)
      m |= RD_BI(BI_BLOCKIDX, d) | RD_BI(BI_GRIDDIM, d);
    else
      m |= RD_BI(BI_THREADIDX, d) | RD_BI(BI_BLOCKDIM, d);
  }
  return m;
}

unsigned reads_changed_regs(const Kernel *k) {
  /* Block mode keeps the block (lanes, warps) and changes what the merged
   * block holds: its shared memory, its place in a cluster.  Thread mode
   * regroups the lanes into warps. */
  if (k->p.mode == MODE_BLOCK)
    return RD_REG_SMEM | RD_REG_CLUSTER;
  return RD_REG_LANE | RD_REG_WARP | RD_REG_CLUSTER | RD_ASM_WARP;
}

bool reads_changed(const Kernel *k, const Reads *r) {
  return r->everything || ((r->bi | r->fixed_bi) & reads_changed_bi(k)) || (r->regs & reads_changed_regs(k));
}

/* ---- points-to sets of pointer locals ---- */

typedef struct {
  bool changed;
} PtsRun;

static void pts_assign(PtsRun *run, Sym *p, Node *value) {
  if (!p || p->kind != SYM_LOCAL || !holds_pointer(p))
    return;
  if (!p->pts)
    p->pts = arena_alloc(sizeof *p->pts);
  PointsTo add = {0};
  pts_of(value, &add);
  int before = p->pts->syms.len;
  bool m = p->pts->memory, u = p->pts->unknown;
  pts_union(p->pts, &add);
  vec_free(&add.syms);
  if (p->pts->syms.len != before || p->pts->memory != m || p->pts->unknown != u)
    run->changed = true;
}

static void pts_walk(PtsRun *run, Node *n) {
  if (n->kind == N_VAR && n->sym && n->sym->kind == SYM_LOCAL && holds_pointer(n->sym)) {
    if (!n->sym->pts)
      n->sym->pts = arena_alloc(sizeof *n->sym->pts);
    Node *init = var_init(n);
    if (init && sym_is_dyn_shared_view(n->sym)) {
      Reads r = {0}; /* the extern arrays it views */
      reads_of(init, &r);
      for (int i = 0; i < r.shared.len; i++)
        if (!has_sym(&n->sym->pts->syms, r.shared.items[i])) {
          vec_push(&n->sym->pts->syms, r.shared.items[i]);
          run->changed = true;
        }
      reads_free(&r);
    } else if (init) {
      pts_assign(run, n->sym, init);
    }
  }
  if (n->kind == N_ASSIGN && n->nkid == 2) {
    Node *l = strip_implicit(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym && holds_pointer(l->sym))
      pts_assign(run, l->sym, n->op == OP_ASSIGN ? n->kid[1] : n);
  }
  /* A pointer whose address is taken may be set through it. */
  if (n->kind == N_UNOP && n->op == OP_ADDR) {
    Node *l = strip_implicit(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym && l->sym->kind == SYM_LOCAL && holds_pointer(l->sym)) {
      if (!l->sym->pts)
        l->sym->pts = arena_alloc(sizeof *l->sym->pts);
      if (!l->sym->pts->unknown) {
        l->sym->pts->unknown = true;
        run->changed = true;
      }
    }
  }
  /* Passed by non-const reference: the callee may repoint it. */
  if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC && n->sym->ref_params) {
    Node *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(n, &obj, &obj_ptr, &args);
    for (int i = 0; i < args.len && i < 32; i++) {
      Node *a = strip_implicit(args.items[i]);
      if ((n->sym->ref_params >> i & 1) && a && a->kind == N_DECL_REF && a->sym && a->sym->kind == SYM_LOCAL &&
          holds_pointer(a->sym)) {
        if (!a->sym->pts)
          a->sym->pts = arena_alloc(sizeof *a->sym->pts);
        if (!a->sym->pts->unknown) {
          a->sym->pts->unknown = true;
          run->changed = true;
        }
      }
    }
    vec_free(&args);
  }
  for (int i = 0; i < n->nkid; i++)
    pts_walk(run, n->kid[i]);
}

static void reset_fn_state(Node *n) {
  if (n->sym) {
    n->sym->pts = NULL;
    n->sym->fx_summary = NULL;
    n->sym->rd_summary = NULL;
  }
  for (int i = 0; i < n->nkid; i++)
    reset_fn_state(n->kid[i]);
}

/* Loads the bodies of the header functions reachable from n (not those the
 * table knows, nor cooperative groups'), so that they are analysed like the
 * user's own. */
static void load_callees(Unit *u, Node *n, Vec *seen) {
  if ((n->kind == N_CALL || n->kind == N_DECL_REF) && (n->sym || n->cand)) {
    int count = n->sym ? 1 : n->ncand;
    for (int i = 0; i < count; i++) {
      Sym *fn = n->sym ? n->sym : n->cand[i];
      if (!fn || fn->kind != SYM_FUNC || fn_is_known(fn) || sym_is_cooperative_groups(fn))
        continue;
      bool done = false;
      for (int j = 0; j < seen->len && !done; j++)
        done = seen->items[j] == fn;
      if (done)
        continue;
      vec_push(seen, fn);
      if (!(fn->in_system_header && fn->is_ctor) && unit_load_body(u, fn))
        load_callees(u, fn->body, seen);
    }
  }
  for (int i = 0; i < n->nkid; i++)
    load_callees(u, n->kid[i], seen);
}

/* Forgets every function's points-to sets and summaries. */
static void reset_all(Unit *u, Kernel *k) {
  for (int i = 0; i < u->functions.len; i++)
    reset_fn_state(u->functions.items[i]);
  for (int i = 0; i < u->extern_functions.len; i++)
    reset_fn_state(u->extern_functions.items[i]);
  reset_fn_state(k->fn);
}

void effects_prepare(Unit *u, Kernel *k) {
  Vec seen = {0};
  load_callees(u, k->fn, &seen);
  if (k->fn->sym && k->fn->sym->body)
    load_callees(u, k->fn->sym->body, &seen); /* an explicit specialization shares the template's Sym */
  vec_free(&seen);
  reset_all(u, k);
  mark_lambdas(k->fn);
  rd_unit = u;
  prepare_implicit();
  vec_free(&rd_views);
  find_views(k, k->fn->sym->body);
  /* Summaries made while gathering those lacked the implicit members' reads
   * and the points-to sets: computed again on demand. */
  reset_all(u, k);
  PtsRun run;
  int rounds = 0;
  do {
    run.changed = false;
    for (int i = 0; i < u->functions.len; i++)
      pts_walk(&run, u->functions.items[i]);
    for (int i = 0; i < u->extern_functions.len; i++)
      pts_walk(&run, u->extern_functions.items[i]);
    pts_walk(&run, k->fn);
  } while (run.changed && ++rounds < 50);
}
