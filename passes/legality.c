/* legality: refuses kernels that cannot be coarsened correctly.
 *
 * Contract: requires uniform_analyze on the kernel; reports each reason as
 * a located error (DESIGN.md section 4) and returns false if any.  Runs
 * before fuse, which may then assume: barriers only in uniform control,
 * no warp-synchronous code that thread mode would split, every varying
 * name and logical index spelled in the file's own text, no recursion, no
 * construct the emitter does not model, every callee known (effects.c's
 * table or a body), every helper that reads a changed builtin
 * clonable (render.c emit_clones), every default argument that reads one
 * spellable at its call (render.c default_arg_sites), and nothing read where
 * no rewrite reaches (reads.c: assembly, implicit calls, shared
 * memory declared in another function), lambdas only as locals called by
 * name whose bodies hold no barrier, warp call or shared memory
 * (check_lambda).
 *
 *   if (threadIdx.x < s) { __syncthreads(); }   // thread mode along x:
 *   error: __syncthreads() under control that differs between the copies
 *
 * This file walks the kernel's code and its callees (walk, check_call,
 * check_fn) and holds the entry point; refuse() and the predicates every
 * check uses are in legality_base.c, cooperative groups in legality_cg.c,
 * the checks of the kernel as a whole in legality_kernel.c (they share
 * legality_int.h).
 */
#include "passes.h"
#include "legality_int.h"

#include <stdarg.h>
#include <string.h>

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
void check_call(Legal *L, Node *site, Node *call, Sym *in) {
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
