/* effects: what evaluating an expression or statement may write.
 *
 * Contract: effects_prepare(u, k) before the queries on kernel k (it
 * computes what every pointer local of the unit may point into, and forgets
 * the function summaries of an earlier kernel).  effects_of(n, &e) then adds
 * to e everything n may write.  uniform, legality and fuse make every
 * decision that depends on writes from these answers, so a new way of
 * writing (an atomic, a method, a reference argument) is taught here once.
 *
 * Writes are resolved to the variables they may reach:
 *   x = v;  x += v;  x++;        writes x
 *   a[i].f = v;                  writes the local or shared array a
 *   *p = v;  p[i] = v;  p->f = v writes what p may point into (points-to,
 *                                flow-insensitive over all p's definitions)
 *   atomicAdd(&sh[j], 1)         writes sh (a non-const pointer parameter)
 *   bump(s.count)                writes s (a non-const reference parameter)
 *   best = cur;  acc.add(v);     writes best, acc (a non-const method or
 *                                operator writes its object)
 *   helper(...)                  also what the helper's body writes besides
 *                                its own locals (its summary)
 * Sound by construction: a pointer whose origin is not followed (loaded
 * from memory, returned by a call, made from an integer) points to
 * `unknown`, and a write through it is `unknown`, which callers must treat
 * as a write to every variable whose address may have been taken; a call
 * of a function tfuse cannot see is `unknown` and `calls`.  Nothing is
 * assumed unwritten by default.
 */
#include "tfuse.h"

#include <string.h>

typedef struct PointsTo {
  Vec syms;     /* Sym*: variables it may point into */
  bool memory;  /* memory no variable names (a pointer parameter's) */
  bool unknown; /* anything whose address escaped */
} PointsTo;

typedef struct Summary {
  Effects fx;
  bool busy; /* being computed: a recursive call */
} Summary;

static void add_sym(Vec *v, Sym *s) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == s)
      return;
  vec_push(v, s);
}

static void effects_add_write(Effects *e, Sym *s) {
  if (s)
    add_sym(&e->writes, s);
}

static void pts_union(PointsTo *into, const PointsTo *from) {
  for (int i = 0; i < from->syms.len; i++)
    add_sym(&into->syms, from->syms.items[i]);
  into->memory |= from->memory;
  into->unknown |= from->unknown;
}

static Node *strip_implicit(Node *n) {
  while (n && (n->kind == N_PAREN || n->kind == N_UNEXPOSED) && n->nkid >= 1)
    n = n->kid[n->nkid - 1];
  return n;
}

static void pts_of(Node *n, PointsTo *out);

/* The objects an lvalue designates (the whole variable for an element or
 * member of it).  `this_obj` is set for a member of the implicit object. */
static void lvalue_objects(Node *lv, PointsTo *out, bool *this_obj) {
  Node *n = strip_implicit(lv);
  if (!n) {
    out->unknown = true;
    return;
  }
  switch (n->kind) {
  case N_DECL_REF: {
    Sym *s = n->sym;
    if (!s || s->kind == SYM_FUNC || s->kind == SYM_OTHER || s->kind == SYM_BUILTIN)
      return; /* not an object that can be written */
    if (s->is_reference)
      out->unknown = true; /* what it refers to is not followed */
    else
      add_sym(&out->syms, s);
    return;
  }
  case N_VAR:
    if (n->sym)
      add_sym(&out->syms, n->sym);
    return;
  case N_SUBSCRIPT: {
    Node *base = strip_implicit(n->kid[0]);
    if (base && base->kind == N_DECL_REF && base->sym && base->sym->is_array && base->sym->kind != SYM_PARAM) {
      lvalue_objects(base, out, this_obj);
      return;
    }
    if (base && base->kind == N_SUBSCRIPT) { /* a[i][j]: a row of an array */
      Node *root = base;
      while (root && root->kind == N_SUBSCRIPT)
        root = strip_implicit(root->kid[0]);
      if (root && root->kind == N_DECL_REF && root->sym && root->sym->is_array && root->sym->kind != SYM_PARAM) {
        lvalue_objects(root, out, this_obj);
        return;
      }
    }
    if (base && base->kind == N_MEMBER && !base->arrow && base->nkid == 1) {
      /* s.arr[i]: an array member of an object (or a pointer member, which
       * pts_of resolves as unknown). */
      PointsTo p = {0};
      pts_of(base, &p);
      pts_union(out, &p);
      vec_free(&p.syms);
      return;
    }
    pts_of(n->kid[0], out);
    return;
  }
  case N_MEMBER:
    if (n->nkid == 0) {
      *this_obj = true; /* a member of the implicit object */
      return;
    }
    if (n->arrow)
      pts_of(n->kid[0], out);
    else
      lvalue_objects(n->kid[0], out, this_obj);
    return;
  case N_UNOP:
    if (n->op == OP_DEREF) {
      pts_of(n->kid[0], out);
      return;
    }
    if (n->op >= OP_PRE_INC && n->op <= OP_PRE_DEC) { /* ++x is x */
      lvalue_objects(n->kid[0], out, this_obj);
      return;
    }
    out->unknown = true;
    return;
  case N_ASSIGN: /* (x = v) is x */
    lvalue_objects(n->kid[0], out, this_obj);
    return;
  case N_COND:
    if (n->nkid == 3) {
      lvalue_objects(n->kid[1], out, this_obj);
      lvalue_objects(n->kid[2], out, this_obj);
      return;
    }
    out->unknown = true;
    return;
  case N_BINOP:
    if (n->op == OP_COMMA && n->nkid == 2) {
      lvalue_objects(n->kid[1], out, this_obj);
      return;
    }
    out->unknown = true;
    return;
  case N_CALL: {
    /* A call returning a reference (operator[], a getter): the object of a
     * method, else anything. */
    Node *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(n, &obj, &obj_ptr, &args);
    vec_free(&args);
    if (n->sym && n->sym->is_method && obj) {
      if (obj_ptr)
        pts_of(obj, out);
      else
        lvalue_objects(obj, out, this_obj);
      return;
    }
    out->unknown = true;
    return;
  }
  default:
    out->unknown = true;
    return;
  }
}

/* What a pointer-valued expression may point into. */
static void pts_of(Node *n, PointsTo *out) {
  n = strip_implicit(n);
  if (!n) {
    out->unknown = true;
    return;
  }
  switch (n->kind) {
  case N_LITERAL:
  case N_BUILTIN:
    return;
  case N_DECL_REF: {
    Sym *s = n->sym;
    if (!s || s->kind == SYM_OTHER || s->kind == SYM_BUILTIN)
      return;
    if (s->kind == SYM_FUNC) {
      out->unknown = true;
      return;
    }
    if (s->is_array && s->kind != SYM_PARAM) {
      add_sym(&out->syms, s); /* the array decays to a pointer into it */
      return;
    }
    if (s->is_reference) {
      out->unknown = true;
      return;
    }
    if (s->kind == SYM_PARAM && (s->is_pointer || s->is_array)) {
      /* A kernel's pointer argument points to global memory; a helper's
       * is followed at its call sites (its out_params). */
      out->memory = true;
      return;
    }
    if (s->kind == SYM_LOCAL && s->is_pointer) {
      if (s->pts)
        pts_union(out, s->pts);
      else
        out->unknown = true;
      return;
    }
    if (s->is_pointer) {
      out->unknown = true; /* a pointer held in a shared or global variable */
      return;
    }
    return; /* an integer or other value: no pointer in it */
  }
  case N_UNOP:
    if (n->op == OP_ADDR) {
      bool this_obj = false;
      lvalue_objects(n->kid[0], out, &this_obj);
      if (this_obj)
        out->unknown = true;
      return;
    }
    if ((n->op >= OP_POST_INC && n->op <= OP_PRE_DEC) || n->op == OP_PLUS) {
      pts_of(n->kid[0], out);
      return;
    }
    if (n->type_integral)
      return;
    out->unknown = true;
    return;
  case N_BINOP:
    if (n->type_integral)
      return;
    if (n->op == OP_COMMA) {
      pts_of(n->kid[1], out);
      return;
    }
    if (n->op == OP_ADD || n->op == OP_SUB) {
      for (int i = 0; i < n->nkid; i++)
        if (!n->kid[i]->type_integral)
          pts_of(n->kid[i], out);
      return;
    }
    out->unknown = true;
    return;
  case N_ASSIGN:
    pts_of(n->kid[n->nkid - 1], out);
    if (n->op != OP_ASSIGN)
      pts_of(n->kid[0], out);
    return;
  case N_COND:
    for (int i = 1; i < n->nkid; i++)
      pts_of(n->kid[i], out);
    return;
  case N_CAST: {
    Node *op = n->nkid ? strip_implicit(n->kid[n->nkid - 1]) : NULL;
    if (!op || (op->type_integral && op->kind != N_LITERAL)) {
      out->unknown = true; /* a pointer made from an integer */
      return;
    }
    pts_of(op, out);
    return;
  }
  case N_NEW:
    out->memory = true;
    return;
  case N_CALL:
    if (n->sym && n->sym->in_system_header && n->sym->name && !strcmp(n->sym->name, "malloc")) {
      out->memory = true;
      return;
    }
    out->unknown = true;
    return;
  default:
    if (n->type_integral || n->type_arith)
      return;
    out->unknown = true; /* loaded from memory, a member, ... */
    return;
  }
}

/* A store into what `p` says: writes of those variables; frees p. */
static void add_pointee_writes(Effects *e, PointsTo *p) {
  for (int i = 0; i < p->syms.len; i++)
    effects_add_write(e, p->syms.items[i]);
  e->memory |= p->memory;
  e->unknown |= p->unknown;
  vec_free(&p->syms);
}

/* Adds what `from` writes and calls to `into`. */
static void effects_merge(Effects *into, const Effects *from) {
  for (int i = 0; i < from->writes.len; i++)
    effects_add_write(into, from->writes.items[i]);
  into->memory |= from->memory;
  into->unknown |= from->unknown;
  into->calls |= from->calls;
  into->allocates |= from->allocates;
}

/* Adds the writes of a store into the lvalue `lv`. */
static void store_to(Node *lv, Effects *e) {
  PointsTo p = {0};
  bool this_obj = false;
  lvalue_objects(lv, &p, &this_obj);
  add_pointee_writes(e, &p);
  e->this_obj |= this_obj;
}

/* Adds the writes of a store through the pointer expression `ptr`. */
static void store_through(Node *ptr, Effects *e) {
  PointsTo p = {0};
  pts_of(ptr, &p);
  add_pointee_writes(e, &p);
}

/* ---- calls ---- */

void call_args(const Node *call, Node **obj, bool *obj_ptr, Vec *args) {
  *obj = NULL;
  *obj_ptr = false;
  Sym *fn = call->sym;
  int callee = -1;
  for (int i = 0; i < call->nkid && fn; i++) {
    Node *c = strip_implicit(call->kid[i]);
    if (c && c->kind == N_DECL_REF && c->sym == fn) {
      callee = i;
      break;
    }
  }
  if (callee >= 0) {
    /* f(args), or an operator call: the operands around the operator; a
     * member operator's first operand is its object. */
    bool first = true;
    for (int i = 0; i < call->nkid; i++) {
      if (i == callee || call->kid[i]->kind == N_TYPE_REF)
        continue;
      if (first && fn->is_method)
        *obj = call->kid[i];
      else
        vec_push(args, call->kid[i]);
      first = false;
    }
    return;
  }
  Node *c0 = call->nkid ? strip_implicit(call->kid[0]) : NULL;
  if (c0 && c0->kind == N_MEMBER && fn && fn->is_method) {
    /* obj.f(args) or p->f(args). */
    if (c0->nkid == 1) {
      *obj = c0->kid[0];
      *obj_ptr = c0->arrow;
    }
    for (int i = 1; i < call->nkid; i++)
      vec_push(args, call->kid[i]);
    return;
  }
  for (int i = 0; i < call->nkid; i++)
    if (call->kid[i]->kind != N_TYPE_REF)
      vec_push(args, call->kid[i]);
}

static const char *effect_names[] = {
    "atomic", "printf", "malloc", "free", "__threadfence", "__nanosleep", "__trap", "__brkpt",
    "clock", "__assert", "assert", "__prof_trigger", "__st", "memcpy", "memset", "__syncthreads",
    "__syncwarp", "__shfl", "__ballot", "__any", "__all", "__activemask", "__match", "__reduce",
    "curand", "vprintf", "__pipeline", "__isShared", "__isGlobal", "__cvta", "__ld", "__fence",
    "__barrier", "__mbarrier", "__cluster", "_rand",
};

/* A function of CUDA's or the C library's, without a body tfuse sees, that
 * has an effect of its own or depends on which thread calls it. */
static bool system_effect_name(const char *name) {
  for (size_t i = 0; i < sizeof effect_names / sizeof *effect_names; i++)
    if (!strncmp(name, effect_names[i], strlen(effect_names[i])))
      return true;
  return false;
}

bool sym_is_cooperative_groups(const Sym *s) {
  return s && s->usr && strstr(s->usr, "@N@cooperative_groups") != NULL;
}

static void summary_of(Sym *fn, Effects *out);

static void call_effects(Node *call, Effects *e) {
  Sym *fn = call->sym;
  if (call->is_launch) {
    /* A kernel launch writes device memory through its arguments, never
     * the launching function's variables (they are copied). */
    e->calls = e->memory = true;
    return;
  }
  if ((!fn && !call_is_construct(call)) || (fn && fn->kind != SYM_FUNC)) {
    e->calls = e->unknown = true;
    return;
  }
  if (!fn)
    return; /* T(x) in a template: a construction */
  if (fn->name && !strcmp(fn->name, "__cudaPushCallConfiguration"))
    return; /* a launch's configuration: copies its values */
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  if (fn->is_method && !fn->is_const_method) {
    if (!obj)
      e->this_obj = true; /* a method of the implicit object */
    else if (obj_ptr)
      store_through(obj, e);
    else
      store_to(obj, e);
  }
  for (int i = 0; i < args.len; i++) {
    Node *a = args.items[i];
    bool known = i < 32 && i < fn->nparams;
    if (known && !(fn->out_params >> i & 1))
      continue; /* by value, or pointer/reference to const */
    if (known && (fn->ref_params >> i & 1))
      store_to(a, e);
    else if (known || !a->type_arith)
      store_through(a, e); /* a pointer parameter, or an argument of `...` */
  }
  vec_free(&args);
  if (fn->body && fn->in_main_file) {
    Effects s = {0};
    summary_of(fn, &s);
    effects_merge(e, &s);
    e->calls |= s.writes.len || s.memory || s.unknown || fn->out_params;
    effects_free(&s);
  } else if (fn->in_system_header) {
    if (system_effect_name(fn->name) || fn->out_params || sym_is_cooperative_groups(fn))
      e->calls = true;
  } else if (!fn->is_ctor || fn->body) {
    e->calls = e->unknown = true; /* a function tfuse cannot see */
  }
}

/* What a function's body writes besides its own locals and parameters;
 * writes through its parameters are the call site's (out_params). */
static void summary_of(Sym *fn, Effects *out) {
  Summary *sm = (Summary *)fn->fx_summary;
  if (!sm) {
    sm = arena_alloc(sizeof *sm);
    fn->fx_summary = sm;
    sm->busy = true;
    Effects all = {0};
    effects_of(fn->body, &all);
    for (int i = 0; i < all.writes.len; i++) {
      Sym *s = all.writes.items[i];
      if (s->kind == SYM_SHARED || s->kind == SYM_GLOBAL)
        effects_add_write(&sm->fx, s);
    }
    sm->fx.memory = all.memory;
    sm->fx.unknown = all.unknown;
    sm->fx.calls = all.calls;
    sm->fx.allocates = all.allocates;
    vec_free(&all.writes);
    sm->busy = false;
  } else if (sm->busy) {
    out->calls = out->unknown = true; /* recursion: legality refuses it */
    return;
  }
  effects_merge(out, &sm->fx);
}

void effects_of(Node *n, Effects *e) {
  if (!n)
    return;
  switch (n->kind) {
  case N_ASSIGN:
    store_to(n->kid[0], e);
    break;
  case N_UNOP:
    if (node_is_incdec(n))
      store_to(n->kid[0], e);
    break;
  case N_CALL:
    if (!node_is_barrier(n))
      call_effects(n, e);
    break;
  case N_NEW:
    e->calls = e->allocates = true;
    break;
  case N_ASM:
  case N_LAMBDA:
    e->calls = e->unknown = true;
    break;
  default:
    break;
  }
  for (int i = 0; i < n->nkid; i++)
    effects_of(n->kid[i], e);
}

void effects_of_store(Node *lv, Effects *e) { store_to(lv, e); }

void effects_of_call(Node *call, Effects *e) {
  if (!node_is_barrier(call))
    call_effects(call, e);
}

void effects_free(Effects *e) { vec_free(&e->writes); }

bool effects_beyond_locals(const Effects *e) {
  if (e->memory || e->unknown || e->calls || e->this_obj || e->allocates)
    return true;
  for (int i = 0; i < e->writes.len; i++) {
    Sym *s = e->writes.items[i];
    if (s->kind != SYM_LOCAL && s->kind != SYM_PARAM)
      return true;
  }
  return false;
}

bool effects_none(const Effects *e) { return !e->writes.len && !effects_beyond_locals(e); }

bool node_effects_beyond_locals(Node *n) {
  Effects e = {0};
  effects_of(n, &e);
  bool r = effects_beyond_locals(&e);
  effects_free(&e);
  return r;
}

/* `M[i] = v;` to memory or a shared or global variable, with an index and
 * a value that write nothing and call nothing: the same store by every
 * copy, so emitted once it stores what the K copies would. */
bool stmt_is_idempotent_store(Node *s) {
  Node *n = node_strip(s);
  if (n->kind != N_ASSIGN || n->op != OP_ASSIGN || n->nkid != 2)
    return false;
  if (node_store_target(n->kid[0]))
    return false; /* a local: not a store to memory */
  Effects lhs = {0}, rhs = {0};
  Node *l = strip_implicit(n->kid[0]);
  for (int i = 0; l && i < l->nkid; i++)
    effects_of(l->kid[i], &lhs);
  effects_of(n->kid[1], &rhs);
  bool ok = effects_none(&lhs) && effects_none(&rhs) && !n->type_dim3;
  effects_free(&lhs);
  effects_free(&rhs);
  return ok;
}

bool stmt_is_per_copy(Node *s) {
  if (s->varying)
    return true;
  return node_effects_beyond_locals(s) && !stmt_is_idempotent_store(s);
}

/* ---- points-to sets of pointer locals ---- */

typedef struct {
  bool changed;
} PtsRun;

static void pts_assign(PtsRun *run, Sym *p, Node *value) {
  if (!p || p->kind != SYM_LOCAL || !p->is_pointer)
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
  if (n->kind == N_VAR && n->sym && n->sym->kind == SYM_LOCAL && n->sym->is_pointer) {
    if (!n->sym->pts)
      n->sym->pts = arena_alloc(sizeof *n->sym->pts);
    Node *init = var_init(n);
    if (init)
      pts_assign(run, n->sym, init);
  }
  if (n->kind == N_ASSIGN && n->nkid == 2) {
    Node *l = strip_implicit(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym && l->sym->is_pointer)
      pts_assign(run, l->sym, n->op == OP_ASSIGN ? n->kid[1] : n);
  }
  /* A pointer whose address is taken may be set through it. */
  if (n->kind == N_UNOP && n->op == OP_ADDR) {
    Node *l = strip_implicit(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym && l->sym->kind == SYM_LOCAL && l->sym->is_pointer) {
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
          a->sym->is_pointer) {
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
  }
  for (int i = 0; i < n->nkid; i++)
    reset_fn_state(n->kid[i]);
}

void effects_prepare(Unit *u, Kernel *k) {
  for (int i = 0; i < u->functions.len; i++)
    reset_fn_state(u->functions.items[i]);
  reset_fn_state(k->fn);
  PtsRun run;
  int rounds = 0;
  do {
    run.changed = false;
    for (int i = 0; i < u->functions.len; i++)
      pts_walk(&run, u->functions.items[i]);
    pts_walk(&run, k->fn);
  } while (run.changed && ++rounds < 50);
}
