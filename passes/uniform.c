/* uniform: which values differ between the K copies of a physical thread.
 *
 * Contract: requires the parsed kernel and its Params; provides
 * Sym.varying for every variable the kernel touches, Node.varying for
 * expressions and statements, Node.loop_varying for control statements
 * whose control differs between copies, and Node.has_vreturn.
 *
 * DESIGN.md section 2, flow-insensitively, iterated to a fixpoint:
 *   - seeds: blockIdx.d in block mode, threadIdx.d in thread mode;
 *   - an expression is varying if an operand is; a variable with one
 *     varying definition is varying everywhere;
 *   - control dependence: a definition under varying control (a varying
 *     condition, loop, break/continue, or after a varying return) makes the
 *     variable varying *if it was declared outside that control*.  A local
 *     declared inside a varying `if` and defined uniformly stays uniform:
 *     its scope ends before the copies can disagree;
 *   - memory: a local array written with a varying index or value is
 *     varying; in block mode a __shared__ array written so is replicated
 *     (one per logical block, Sym.varying); in thread mode shared arrays
 *     stay single;
 *   - calls: an effectful call's value is varying (it runs once per copy);
 *     a pure call is varying iff an argument is.
 *
 *   int i = blockIdx.x * blockDim.x + threadIdx.x;   // varying (block, x)
 *   float y = gridspacing * (float)j;               // uniform
 */
#include "passes.h"

#include <string.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  Node *node;
  int base; /* depth inside the loop had it been uniform */
  bool is_switch;
} LoopFrame;

typedef struct {
  Unit *u;
  Kernel *k;
  bool changed;
  int depth;    /* varying-control nesting */
  int ret_bump; /* 1 once a varying return has been passed */
  LoopFrame loops[256];
  int nloops;
  Vec shared; /* Sym*: every __shared__ variable the kernel and its helpers name */
  bool threads; /* the threads pass: seeds are threadIdx.x/y/z, shared memory is one */
  int only_dim; /* several dimensions: the one whose copies this pass compares (-1: one dimension) */
} UA;

/* Block mode, or the threads pass (which asks what differs between the
 * threads of one block, as thread mode does between copies). */
static bool ua_block(const UA *ua) { return ua->k->p.mode == MODE_BLOCK && !ua->threads; }

static bool ua_seed(const UA *ua, const Node *n) {
  if (ua->threads)
    return n->kind == N_BUILTIN && n->bi == BI_THREADIDX;
  if (ua->only_dim >= 0 && n->kind == N_BUILTIN && n->bi_dim >= 0 && n->bi_dim != ua->only_dim)
    return false;
  return builtin_is_seed(ua->k, n);
}

/* Whether dimension d is coarsened. */
static bool dim_coarsened(const Kernel *k, int d) {
  return params_multi(&k->p) ? k->p.kd[d] > 1 : d == k->p.dim;
}

static int eff_depth(UA *ua) { return ua->depth + ua->ret_bump; }

bool builtin_is_seed(const Kernel *k, const Node *n) {
  if (n->kind != N_BUILTIN)
    return false;
  Builtin seed = k->p.mode == MODE_BLOCK ? BI_BLOCKIDX : BI_THREADIDX;
  return n->bi == seed && (n->bi_dim < 0 || dim_coarsened(k, n->bi_dim));
}

bool builtin_is_rescaled(const Kernel *k, const Node *n) {
  if (n->kind != N_BUILTIN)
    return false;
  Builtin r = k->p.mode == MODE_BLOCK ? BI_GRIDDIM : BI_BLOCKDIM;
  return n->bi == r && (n->bi_dim < 0 || dim_coarsened(k, n->bi_dim));
}

/* Marks the locals `cg::thread_block b = cg::this_thread_block();` that
 * nothing else writes. */
static bool init_is_block_handle(Node *n) {
  if (node_is_cg_block_handle(n))
    return true;
  return n->nkid >= 1 && (n->kind == N_UNEXPOSED || n->kind == N_CALL || n->kind == N_PAREN || n->kind == N_CAST) &&
         init_is_block_handle(n->kid[n->nkid - 1]);
}

static void mark_cg_blocks(Node *n) {
  if (n->kind == N_VAR && n->sym && n->sym->kind == SYM_LOCAL && !n->sym->is_reference && !n->sym->is_pointer) {
    Node *init = var_init(n);
    if (init && init_is_block_handle(init))
      n->sym->cg_block = true;
  }
  if (n->kind == N_ASSIGN) {
    Node *l = node_strip(n->kid[0]);
    if (l->kind == N_DECL_REF && l->sym)
      l->sym->cg_block = false; /* assigned: not only the handle */
  }
  for (int i = 0; i < n->nkid; i++)
    mark_cg_blocks(n->kid[i]);
}

/* Queries over the helpers a call reaches walk each helper once: `seen`
 * holds the functions already visited (for "any" queries, found without;
 * for purity, found pure or being checked: recursion is refused
 * elsewhere), so overload sets that call overload sets stay linear. */
static bool seen_before(Vec *seen, const Sym *fn) {
  for (int i = 0; i < seen->len; i++)
    if (seen->items[i] == fn)
      return true;
  vec_push(seen, (void *)fn);
  return false;
}

/* Whether the helper reads, as written in its body or the bodies it calls
 * (the reads model), a builtin the coarsening changes: each copy calls a
 * clone.  Reads no rewrite reaches (assembly, implicit calls) are
 * legality's to refuse. */
bool fn_reads_changed_builtins(const Kernel *k, const Sym *fn) {
  if (!fn || fn->kind != SYM_FUNC || fn_class(fn) != FN_BODY)
    return false;
  Reads r = {0};
  reads_of_fn((Sym *)fn, &r);
  bool changed = (r.bi & reads_changed_bi(k)) != 0;
  reads_free(&r);
  return changed;
}

/* Whether fn reads any coordinate or special register, by any path (a
 * default argument of a call in its body included): not a function of its
 * arguments alone. */
static bool fn_reads_any(Sym *fn) {
  Reads r = {0};
  reads_of_fn(fn, &r);
  bool any = r.bi || r.fixed_bi || r.regs || r.everything;
  reads_free(&r);
  return any;
}

/* Whether a call reads this pass's seed by a path its operands and its
 * callee's purity do not show: a default argument evaluated at the call,
 * an implicit member, assembly, or something tfuse cannot tell. */
static bool call_reads_seed(const UA *ua, Node *call) {
  Reads r = {0};
  reads_of(call, &r);
  unsigned seed = 0;
  if (ua->threads)
    seed = RD_BI_ALL(BI_THREADIDX);
  else
    for (int d = 0; d < 3; d++)
      if (dim_coarsened(ua->k, d) && (ua->only_dim < 0 || ua->only_dim == d))
        seed |= RD_BI(ua->k->p.mode == MODE_BLOCK ? BI_BLOCKIDX : BI_THREADIDX, d);
  bool v = r.everything || ((r.bi | r.fixed_bi) & seed);
  reads_free(&r);
  return v;
}


/* A function that neither writes memory nor depends on which thread calls
 * it (effects.c's table, else its body), and a call of one (every candidate
 * of a dependent call). */
static bool pure_rec(const Sym *fn, Vec *seen);
static bool call_pure_rec(const Node *call, Vec *seen);

static bool body_is_pure(const Node *n, Vec *seen) {
  if (!n)
    return true;
  if ((n->kind == N_ASSIGN || node_is_incdec(n)) && !node_store_target(n->kid[0]))
    return false; /* a store beyond its own locals */
  /* A barrier orders the block's threads and computes nothing: a helper
   * that only waits and reads is still a function of its arguments
   * (legality checks where its calls may stand). */
  if (n->kind == N_CALL && !node_is_barrier(n) && !call_pure_rec(n, seen))
    return false;
  if (n->kind == N_ASM || n->kind == N_NEW || n->kind == N_LAMBDA || n->kind == N_BUILTIN)
    return false;
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_BUILTIN)
    return false; /* `blockIdx` as a whole */
  for (int i = 0; i < n->nkid; i++)
    if (!body_is_pure(n->kid[i], seen))
      return false;
  return true;
}

static bool pure_rec(const Sym *fn, Vec *seen) {
  if (!fn || fn->kind != SYM_FUNC)
    return false;
  /* A non-const method writes its object. */
  if (fn->is_method && !fn->is_const_method)
    return false;
  switch (fn_class(fn)) {
  case FN_PURE:
  case FN_LOAD: /* like a load: uniform at a uniform address */
    return fn->out_params == 0;
  case FN_BODY:
    return fn->out_params == 0 && (seen_before(seen, fn) || (body_is_pure(fn->body, seen) && !fn_reads_any((Sym *)fn)));
  default:
    return false;
  }
}

static bool call_pure_rec(const Node *call, Vec *seen) {
  if (call->is_launch)
    return false;
  if (call->sym)
    return pure_rec(call->sym, seen);
  if (call->cand) {
    for (int i = 0; i < call->ncand; i++)
      if (!pure_rec(call->cand[i], seen))
        return false;
    return call->ncand > 0;
  }
  return call_is_construct(call);
}

static bool call_pure(const Node *call) {
  Vec seen = {0};
  bool r = call_pure_rec(call, &seen);
  vec_free(&seen);
  return r;
}

bool sym_is_pure_function(const Sym *fn) {
  Vec seen = {0};
  bool r = pure_rec(fn, &seen);
  vec_free(&seen);
  return r;
}

static void make_varying(UA *ua, Sym *s) {
  if (s && !s->varying && s->kind != SYM_BUILTIN && s->kind != SYM_FUNC && s->kind != SYM_OTHER &&
      s->kind != SYM_GLOBAL) {
    s->varying = true;
    ua->changed = true;
    /* CUDA places every `extern __shared__` array of the kernel and its
     * helpers at one address, the block's dynamic shared memory: what one
     * name's copy holds, every other name's copy reads. One replicated, all
     * are (each copy's at the same share, dyn_shared_copies). */
    if (s->kind == SYM_SHARED && s->is_extern)
      for (int i = 0; i < ua->shared.len; i++)
        if (((Sym *)ua->shared.items[i])->is_extern)
          make_varying(ua, ua->shared.items[i]);
  }
}

static void set_loop_varying(UA *ua, Node *n) {
  if (!n->loop_varying) {
    n->loop_varying = true;
    ua->changed = true;
  }
}

/* In block mode a write that tfuse cannot resolve may reach any shared
 * variable: each must then be one per logical block. */
static void unknown_write(UA *ua) {
  if (!ua_block(ua))
    return;
  for (int i = 0; i < ua->shared.len; i++)
    make_varying(ua, ua->shared.items[i]);
}

/* Writes at the current point (effects.c resolved their targets);
 * `value_varying`: the stored value, the index, or the call differs
 * between the copies (or is made once per copy). */
static void note_writes(UA *ua, Effects *e, bool value_varying) {
  bool control = eff_depth(ua) > 0;
  for (int i = 0; i < e->writes.len; i++) {
    Sym *s = e->writes.items[i];
    if (s->kind == SYM_LOCAL || s->kind == SYM_PARAM) {
      if (value_varying || eff_depth(ua) > s->decl_depth)
        make_varying(ua, s);
    } else if (s->kind == SYM_SHARED && ua_block(ua)) {
      if (value_varying || control)
        make_varying(ua, s);
    }
  }
  if (e->unknown && (value_varying || control))
    unknown_write(ua);
}

static void note_store(UA *ua, Node *lhs, bool value_varying) {
  Effects e = {0};
  effects_of_store(lhs, &e);
  note_writes(ua, &e, value_varying);
  effects_free(&e);
}

static bool visit(UA *ua, Node *n);

/* Whether the array-typed expression n is used as an array (subscripted,
 * its size taken) rather than decayed to a pointer. */
static bool array_used_in_place(const Node *n) {
  const Node *p = n->parent;
  if (p && p->kind == N_UNEXPOSED && p->nkid == 1)
    n = p, p = p->parent;
  if (!p)
    return true;
  if (p->kind == N_SUBSCRIPT && p->nkid && p->kid[0] == n)
    return true;
  const Construct *c = construct_of(p); /* sizeof(a): an unevaluated operand */
  return c && c->rule == CONSTRUCT_INERT;
}

/* Memory, not names: an expression of array type that decays to a pointer
 * (the array `a`, a row `a[i]` of a 2-D array, a member `s.arr`) gives a
 * pointer into the local object it is part of, and whatever is written
 * through that pointer, by any chain of casts, subscripts and arithmetic,
 * writes the object: it is address-taken and one per copy. */
static void note_decay(UA *ua, Node *n) {
  if (!n->type_array && !(n->kind == N_DECL_REF && n->sym && n->sym->is_array))
    return;
  if (array_used_in_place(n))
    return;
  Sym *s = node_store_target(n);
  if (s && (s->kind == SYM_LOCAL || s->kind == SYM_PARAM)) {
    s->addr_taken = true;
    make_varying(ua, s);
  }
}

/* Whatever a statement emitted once per copy writes, it writes once per
 * copy: locals must have a copy each (`in[j++]`), and in block mode a
 * shared variable one per logical block (`atomicAdd(&sh[b], 1)`). */
static void writes_per_copy(UA *ua, Node *n) {
  Effects e = {0};
  effects_of(n, &e);
  for (int i = 0; i < e.writes.len; i++) {
    Sym *s = e.writes.items[i];
    if (s->kind == SYM_LOCAL || s->kind == SYM_PARAM || (s->kind == SYM_SHARED && ua_block(ua)))
      make_varying(ua, s);
  }
  if (e.unknown)
    unknown_write(ua);
  effects_free(&e);
}

static bool is_stmt_kind(NodeKind k) {
  switch (k) {
  case N_COMPOUND: case N_DECL_STMT: case N_IF: case N_FOR: case N_WHILE: case N_DO: case N_SWITCH:
  case N_CASE: case N_RETURN: case N_BREAK: case N_CONTINUE: case N_GOTO: case N_LABEL: case N_ASM:
  case N_NULL_STMT: case N_ATTRIBUTED:
    return true;
  default:
    return false;
  }
}

/* After visiting a statement: an expression statement (or declaration)
 * that will be emitted per copy makes the locals it writes per copy. */
static void settle_statement(UA *ua, Node *s) {
  if (s->kind == N_DECL_STMT) {
    for (int i = 0; i < s->nkid; i++)
      if (s->kid[i]->kind == N_VAR && s->kid[i]->sym->varying)
        for (int j = 0; j < s->kid[i]->nkid; j++)
          writes_per_copy(ua, s->kid[i]->kid[j]);
    return;
  }
  if (is_stmt_kind(s->kind))
    return;
  if (stmt_is_per_copy(s))
    writes_per_copy(ua, s);
}

static bool visit_kids(UA *ua, Node *n) {
  bool v = false;
  for (int i = 0; i < n->nkid; i++)
    v |= visit(ua, n->kid[i]);
  return v;
}

static void mark_vreturn(UA *ua, Node *n) {
  for (; n; n = n->parent) {
    if (!n->has_vreturn) {
      n->has_vreturn = true;
      ua->changed = true;
    }
    if (n->kind == N_FUNC)
      break;
  }
}

static LoopFrame *push_loop(UA *ua, Node *n, bool is_switch) {
  LoopFrame *f = &ua->loops[ua->nloops++];
  f->node = n;
  f->is_switch = is_switch;
  f->base = eff_depth(ua);
  return f;
}

static bool visit_loop(UA *ua, Node *n) {
  if (n->has_vreturn)
    ua->ret_bump = 1; /* the whole loop runs after a possible return */
  bool hdr_load = expr_has_load(n->cond) || expr_has_load(n->inc);
  if (hdr_load && eff_depth(ua) > 0)
    set_loop_varying(ua, n);
  /* A header emitted once would make its effects once, not once per copy
   * (`j++, atomicAdd(t, 1)`): such a loop is emitted per copy. */
  if ((n->cond && node_effects_beyond_locals(n->cond)) || (n->inc && node_effects_beyond_locals(n->inc)) ||
      (n->init && n->init->kind != N_DECL_STMT && node_effects_beyond_locals(n->init)))
    set_loop_varying(ua, n);
  int saved = ua->depth;
  push_loop(ua, n, false);
  if (n->loop_varying)
    ua->depth++;
  bool v = false;
  if (n->init && visit(ua, n->init)) {
    v = true;
    /* `for (int a = 0, b = blockIdx.x * 32; ...)`: a header emitted once
     * cannot declare a copy per copy; the loop is emitted per copy. */
    if (n->init->kind == N_DECL_STMT)
      set_loop_varying(ua, n);
  }
  bool cv = n->cond ? visit(ua, n->cond) : false;
  /* A header emitted once cannot hold a varying write (`j++, acc += v`). */
  if (n->inc && visit(ua, n->inc))
    set_loop_varying(ua, n);
  if (cv)
    set_loop_varying(ua, n);
  if (n->body) {
    v |= visit(ua, n->body);
    settle_statement(ua, n->body);
  }
  ua->nloops--;
  ua->depth = saved;
  if (n->loop_varying)
    v = true;
  n->varying = v || cv;
  return n->varying;
}

static bool visit(UA *ua, Node *n) {
  bool v = false;
  switch (n->kind) {
  case N_COMPOUND:
    for (int i = 0; i < n->nkid; i++) {
      v |= visit(ua, n->kid[i]);
      settle_statement(ua, n->kid[i]);
      if (n->kid[i]->has_vreturn)
        ua->ret_bump = 1;
    }
    break;
  case N_VAR: {
    Sym *s = n->sym;
    s->decl_depth = eff_depth(ua);
    for (int i = 0; i < n->nkid; i++)
      if (n->kid[i]->kind != N_TYPE_REF && visit(ua, n->kid[i]))
        make_varying(ua, s);
    if (s->is_reference && s->kind == SYM_LOCAL)
      make_varying(ua, s);
    if (ua_block(ua) && dyn_view_varying(s))
      make_varying(ua, s); /* `T *sdata = SharedMemory<T>();`: copy r views share r */
    if (s->lambda)
      make_varying(ua, s); /* each copy its own closure, its body rendered for the copy */
    v = s->varying;
    break;
  }
  case N_IF: {
    bool cv = n->cond ? visit(ua, n->cond) : false;
    if (cv || (expr_has_load(n->cond) && eff_depth(ua) > 0) || (n->cond && node_effects_beyond_locals(n->cond)))
      set_loop_varying(ua, n);
    if (n->loop_varying && n->cond)
      writes_per_copy(ua, n->cond); /* each copy evaluates its own condition */
    int saved = ua->depth;
    if (n->loop_varying)
      ua->depth++;
    if (n->then) {
      v |= visit(ua, n->then);
      settle_statement(ua, n->then);
    }
    if (n->els) {
      v |= visit(ua, n->els);
      settle_statement(ua, n->els);
    }
    ua->depth = saved;
    v |= n->loop_varying;
    break;
  }
  case N_FOR:
  case N_WHILE:
  case N_DO:
    v = visit_loop(ua, n);
    break;
  case N_SWITCH: {
    bool cv = n->cond ? visit(ua, n->cond) : false;
    if (cv || (n->cond && node_effects_beyond_locals(n->cond)))
      set_loop_varying(ua, n);
    int saved = ua->depth;
    push_loop(ua, n, true);
    if (n->loop_varying)
      ua->depth++;
    if (n->body)
      v |= visit(ua, n->body);
    ua->nloops--;
    ua->depth = saved;
    v |= n->loop_varying;
    break;
  }
  case N_RETURN:
    visit_kids(ua, n);
    if (eff_depth(ua) > 0 && !node_in_lambda(n)) { /* a lambda's return leaves the lambda */
      mark_vreturn(ua, n);
      ua->ret_bump = 1;
      v = true;
    }
    break;
  case N_BREAK:
  case N_CONTINUE:
    for (int i = ua->nloops - 1; i >= 0; i--) {
      LoopFrame *f = &ua->loops[i];
      if (n->kind == N_CONTINUE && f->is_switch)
        continue;
      if (eff_depth(ua) > f->base + (f->node->loop_varying ? 1 : 0) && !f->is_switch)
        set_loop_varying(ua, f->node);
      break;
    }
    v = false;
    break;
  case N_ASSIGN: {
    bool rv = visit(ua, n->kid[1]);
    bool lv = visit(ua, n->kid[0]);
    note_store(ua, n->kid[0], rv || lv);
    Sym *s = node_store_target(n->kid[0]);
    v = rv || lv || (s && s->varying);
    break;
  }
  case N_UNOP: {
    bool ov = visit_kids(ua, n);
    if (n->op >= OP_POST_INC && n->op <= OP_PRE_DEC) {
      note_store(ua, n->kid[0], ov);
    } else if (n->op == OP_ADDR) {
      /* An address taken may be written through later: be conservative. */
      Sym *s = node_store_target(n->kid[0]);
      if (s) {
        s->addr_taken = true;
        make_varying(ua, s);
        ov = true;
      }
    }
    v = ov;
    break;
  }
  case N_CALL: {
    v = visit_kids(ua, n);
    bool pure = (call_pure(n) && !call_reads_seed(ua, n)) || node_is_cg_block_handle(n);
    if (node_is_barrier(n)) {
      pure = true; /* uniform: legality keeps it in uniform control */
      if (ua->threads) /* the last round's answer stays */
        n->barrier_thread_divergent = eff_depth(ua) > 0;
    }
    /* __syncthreads_count/and/or: the same for every thread of a block.
     * Block mode: copy r's predicate combined over the physical block is
     * logical block r's answer, so the value varies as its predicate does;
     * thread mode: one logical block, fuse.c combines the copies' calls. */
    if (node_is_block_reduce(n) && !ua_block(ua))
      v = false;
    if (!pure)
      v = true;
    /* What the call writes: its object, what its pointer and reference
     * arguments reach, what its body writes. */
    Effects e = {0};
    effects_of_call(n, &e);
    note_writes(ua, &e, v);
    for (int i = 0; i < e.writes.len; i++) {
      Sym *w = e.writes.items[i];
      if (w->kind == SYM_LOCAL || w->kind == SYM_PARAM)
        w->addr_taken = true; /* written where fuse cannot see the store */
    }
    effects_free(&e);
    break;
  }
  case N_NEW:
    visit_kids(ua, n);
    v = true; /* each copy allocates its own */
    break;
  case N_DECL_REF: {
    Sym *s = n->sym;
    if (s && s->kind == SYM_BUILTIN) {
      /* The whole builtin (not one component): varying if it is the seed. */
      const char *want = ua_block(ua) ? "blockIdx" : "threadIdx";
      v = n->parent && n->parent->kind == N_BUILTIN ? false : !strcmp(s->name, want);
    } else if (s) {
      note_decay(ua, n);
      v = s->varying;
    }
    break;
  }
  case N_SUBSCRIPT:
  case N_MEMBER:
    v = visit_kids(ua, n);
    note_decay(ua, n);
    break;
  case N_BUILTIN:
    v = ua_seed(ua, n);
    break;
  default:
    v = visit_kids(ua, n);
    break;
  }
  n->varying = v;
  return v;
}

/* Symbols keep per-kernel analysis state: a file-scope __shared__ array
 * may belong to two kernels of different K. */
static void reset_syms(Node *n) {
  if (n->sym) {
    Sym *s = n->sym;
    s->varying = s->addr_taken = s->promoted = s->reported = s->cg_block = false;
    s->decl_depth = s->region = 0;
    s->copy_names = NULL;
    s->ilv = 0;
  }
  for (int i = 0; i < n->nkid; i++)
    reset_syms(n->kid[i]);
}

static void reset_nodes(Node *n) {
  n->varying = n->has_vreturn = n->loop_varying = false;
  n->ucount = 0;
  for (int i = 0; i < n->nkid; i++)
    reset_nodes(n->kid[i]);
}

static bool has_barrier(const Node *n) {
  if (node_is_barrier(n))
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (has_barrier(n->kid[i]))
      return true;
  return false;
}

static Vec forced; /* Sym*: several dimensions, the variables with a force_mask */

static void analyze(Unit *u, Kernel *k, bool threads, int only_dim) {
  UA ua = {.u = u, .k = k, .threads = threads, .only_dim = only_dim};
  reset_syms(k->fn);
  reset_nodes(k->fn);
  for (int i = 0; only_dim >= 0 && i < forced.len; i++)
    if (((Sym *)forced.items[i])->force_mask >> only_dim & 1)
      ((Sym *)forced.items[i])->varying = true;
  mark_cg_blocks(k->fn);
  effects_prepare(u, k);
  kernel_shared_vars(k->fn, &ua.shared);
  Node *body = k->fn->sym->body;
  /* Parameters are uniform: every copy receives the same arguments. */
  int rounds = 0;
  do {
    ua.changed = false;
    ua.depth = 0;
    ua.ret_bump = 0;
    ua.nloops = 0;
    visit(&ua, body);
  } while (ua.changed && ++rounds < 100);
  k->has_vreturn = body->has_vreturn;
  vec_free(&ua.shared);
}

/* ---- several dimensions ----
 *
 * With factors along several dimensions, copy (rx, ry, rz) is one logical
 * block (thread).  A value uniform along x (the same for all rx at fixed
 * ry, rz) and along y is the same for all copies, so the analysis runs once
 * per coarsened dimension d, seeded by that dimension's index alone (the
 * others' are then uniform: they are the same in the copies compared), and
 * records in vmask the dimensions along which each value varies.  fuse.c
 * emits a statement once per distinct index along its vmask: a value that
 * varies only along x has KX copies, not KX*KY.  varying, loop_varying and
 * has_vreturn become the union, so every other pass sees "differs between
 * some copies", as in one dimension.
 *
 * A statement emitted along more dimensions than a variable it writes
 * varies along would write that variable's copy several times (`n++` in a
 * loop replicated along x and y, with n varying only along x): such a
 * variable is made varying along them too (force_mask), and the passes run
 * again until nothing changes. */

static unsigned all_dims(const Kernel *k) { return params_multi(&k->p) ? params_dims(&k->p) : 1u << k->p.dim; }

static unsigned node_dims(const Kernel *k, const Node *n) {
  return params_multi(&k->p) ? n->vmask : n->varying ? 1u << k->p.dim : 0;
}

static bool contains_return(const Node *n) {
  if (n->kind == N_RETURN)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (contains_return(n->kid[i]))
      return true;
  return false;
}

unsigned stmt_copy_mask(const Kernel *k, Node *s) {
  if (node_effects_beyond_locals(s) && !stmt_is_idempotent_store(s))
    return all_dims(k);
  return node_dims(k, s);
}

unsigned replicated_copy_mask(const Kernel *k, Node *s) {
  if (node_effects_beyond_locals(s) || contains_return(s))
    return all_dims(k);
  return node_dims(k, s);
}

/* What fuse.c replicates whole (emit_stmt, emit_loop). */
static bool is_replicated(const Node *s) {
  switch (s->kind) {
  case N_FOR:
  case N_WHILE:
  case N_DO:
    return s->loop_varying;
  case N_SWITCH:
    return s->varying || s->has_vreturn;
  case N_ATTRIBUTED:
    if (s->body && (s->body->kind == N_FOR || s->body->kind == N_WHILE || s->body->kind == N_DO) &&
        !s->body->loop_varying)
      return false;
    return s->varying || s->has_vreturn;
  default:
    return false;
  }
}

/* Clears the masks (and, at the start, what was forced for another kernel). */
static void clear_masks(Node *n, bool start) {
  n->vmask = n->lvmask = n->rvmask = 0;
  if (n->sym) {
    n->sym->vmask = 0;
    if (start)
      n->sym->force_mask = 0;
  }
  for (int i = 0; i < n->nkid; i++)
    clear_masks(n->kid[i], start);
}

static void record_masks(Node *n, int d) {
  unsigned bit = 1u << d;
  if (n->varying)
    n->vmask |= bit;
  if (n->loop_varying)
    n->lvmask |= bit;
  if (n->has_vreturn)
    n->rvmask |= bit;
  if (n->sym && n->sym->varying)
    n->sym->vmask |= bit;
  for (int i = 0; i < n->nkid; i++)
    record_masks(n->kid[i], d);
}

static void set_union(Node *n) {
  n->varying = n->vmask != 0;
  n->loop_varying = n->lvmask != 0;
  n->has_vreturn = n->rvmask != 0;
  if (n->sym)
    n->sym->varying = n->sym->vmask != 0;
  for (int i = 0; i < n->nkid; i++)
    set_union(n->kid[i]);
}

static bool force(Sym *s, unsigned need) {
  if (!(need & ~s->vmask & ~s->force_mask))
    return false;
  if (!s->force_mask)
    vec_push(&forced, s);
  s->force_mask |= need;
  return true;
}

/* Forces what the code `part` of statement s writes, when s is emitted per
 * copy along `em`: locals declared outside it, and (block mode) shared variables. */
static bool force_writes(Kernel *k, Node *part, unsigned em, Vec *shared) {
  bool changed = false;
  Effects e = {0};
  effects_of(part, &e);
  for (int i = 0; i < e.writes.len; i++) {
    Sym *s = e.writes.items[i];
    bool inside = s->decl_off != ~0u && part->begin <= s->decl_off && s->decl_off < part->end;
    if (((s->kind == SYM_LOCAL || s->kind == SYM_PARAM) && !inside) ||
        (s->kind == SYM_SHARED && k->p.mode == MODE_BLOCK))
      changed |= force(s, em);
    for (int j = 0; s->kind == SYM_SHARED && s->is_extern && k->p.mode == MODE_BLOCK && j < shared->len; j++)
      if (((Sym *)shared->items[j])->is_extern)
        changed |= force(shared->items[j], em); /* one dynamic shared memory (make_varying) */
  }
  for (int i = 0; e.unknown && k->p.mode == MODE_BLOCK && i < shared->len; i++)
    changed |= force(shared->items[i], em);
  effects_free(&e);
  return changed;
}

static bool find_forced(Kernel *k, Node *n, Vec *shared) {
  bool changed = false;
  if (is_replicated(n))
    changed |= force_writes(k, n, replicated_copy_mask(k, n), shared);
  else if (n->kind == N_IF && n->loop_varying && n->cond && node_has_side_effects(n->cond))
    changed |= force_writes(k, n->cond, all_dims(k), shared); /* fuse.c evaluates it per copy */
  for (int i = 0; i < n->nkid; i++)
    changed |= find_forced(k, n->kid[i], shared);
  return changed;
}

static void analyze_dims(Unit *u, Kernel *k) {
  vec_free(&forced); /* its items were in the arena of an earlier run, maybe */
  clear_masks(k->fn, true);
  Vec shared = {0};
  kernel_shared_vars(k->fn, &shared);
  for (int i = 0; i < shared.len; i++)
    ((Sym *)shared.items[i])->vmask = ((Sym *)shared.items[i])->force_mask = 0;
  for (int round = 0; round < 16; round++) {
    for (int d = 0; d < 3; d++) {
      if (k->p.kd[d] <= 1)
        continue;
      analyze(u, k, false, d);
      record_masks(k->fn, d);
      for (int i = 0; i < shared.len; i++)
        if (((Sym *)shared.items[i])->varying)
          ((Sym *)shared.items[i])->vmask |= 1u << d;
    }
    bool ret = k->fn->sym->body->rvmask != 0;
    set_union(k->fn);
    for (int i = 0; i < shared.len; i++)
      ((Sym *)shared.items[i])->varying = ((Sym *)shared.items[i])->vmask != 0;
    k->has_vreturn = ret;
    if (!find_forced(k, k->fn->sym->body, &shared))
      break;
    clear_masks(k->fn, false);
    for (int i = 0; i < shared.len; i++)
      ((Sym *)shared.items[i])->vmask = 0;
  }
  vec_free(&shared);
}

void uniform_analyze(Unit *u, Kernel *k) {
  /* Block mode: first the threads pass, for each barrier whether the
   * threads of one logical block may disagree on reaching it (legality
   * accepts a barrier under control that differs between the copies only
   * when they cannot). Then the pass that counts, over the copies. */
  mark_cg_blocks(k->fn); /* has_barrier sees cg::sync on the block handle too */
  if (k->p.mode == MODE_BLOCK && has_barrier(k->fn))
    analyze(u, k, true, -1);
  if (params_multi(&k->p))
    analyze_dims(u, k);
  else
    analyze(u, k, false, -1);
}
