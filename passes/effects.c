/* effects: what evaluating an expression or statement may write, and what
 * it may read of the thread's coordinates (reads_of, in reads.c).
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
 * Calls: what a callee does comes from ONE table of CUDA's and the C
 * library's functions (known_fns: pure, load, store, warp-synchronous,
 * barrier... see FnClass in passes.h), else from the callee's body, the
 * file's own or a header's (effects_prepare loads those), else it is
 * unknown and legality refuses the call.  A dependent call in a template
 * does what any of its candidates may do.
 * Sound by construction: a pointer whose origin is not followed (loaded
 * from memory, returned by a call, made from an integer) points to
 * `unknown`, and a write through it is `unknown`, which callers must treat
 * as a write to every variable whose address may have been taken; a call
 * of a function tfuse cannot see is `unknown` and `calls`.  Nothing is
 * assumed unwritten by default.  A lambda bound to a local of the kernel
 * (`auto f = [&](int j) {...};`, Sym.lambda) writes nothing where it is
 * made; a call `f(x)` writes what its body writes, as if inlined, and
 * `calls`.
 *
 * cg_query_of(call) names the cooperative groups' queries that read what
 * thread mode renumbers (the block's rank, size, index and extent; a block
 * tile's meta_group_*); cg_tile_parent, the group a tile was partitioned
 * from (its type's ParentT, or the initializer of a local that nothing
 * else writes, by effects_of).
 *
 * reads_of(n, &r) adds to r the coordinate builtins (per dimension), the
 * special registers named in inline assembly and the shared variables n
 * may read or name, through callee bodies, default arguments, constructors,
 * conversions and destructors run implicitly, lambdas and assembly; what it
 * cannot tell is `everything`.  Cloning, renumbering, replication and the
 * refusals of what no rewrite reaches ask it (see the section below).
 *
 * This file holds writes, calls and the functions tfuse knows; reads.c
 * what code reads of the coordinates and shared memory, and the points-to
 * sets; warp_helpers.c the helpers that only compute with warp-synchronous
 * calls (they share effects_int.h). */
#include "passes.h"
#include "effects_int.h"

#include <string.h>


typedef struct Summary {
  Effects fx;
  bool busy; /* being computed: a recursive call */
} Summary;

bool has_sym(const Vec *v, const Sym *s) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == s)
      return true;
  return false;
}

void add_sym(Vec *v, Sym *s) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == s)
      return;
  vec_push(v, s);
}

static void effects_add_write(Effects *e, Sym *s) {
  if (s)
    add_sym(&e->writes, s);
}

void pts_union(PointsTo *into, const PointsTo *from) {
  for (int i = 0; i < from->syms.len; i++)
    add_sym(&into->syms, from->syms.items[i]);
  into->memory |= from->memory;
  into->unknown |= from->unknown;
}

/* A variable that may hold a pointer: a pointer, or of a type that depends
 * on a template parameter (`T p` with T = int *). */
bool holds_pointer(const Sym *s) { return s->is_pointer || s->type_dependent; }

Node *strip_implicit(Node *n) {
  while (n && (n->kind == N_PAREN || n->kind == N_UNEXPOSED) && n->nkid >= 1)
    n = n->kid[n->nkid - 1];
  return n;
}


/* The function whose summary is being computed (summary_of): a store to one
 * of its non-const reference parameters is its call sites' (callee_effects
 * stores to the argument), not a write the summary must carry. */
static Sym *summary_fn;


/* Whether s is a non-const reference parameter of summary_fn. */
static bool summary_ref_param(const Sym *s) {
  if (!summary_fn || s->kind != SYM_PARAM || !s->is_reference)
    return false;
  for (int i = 0; i < 32 && i < summary_fn->nparams; i++)
    if (param_sym(summary_fn, i) == s)
      return (summary_fn->ref_params >> i & 1) != 0;
  return false;
}

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
    if (summary_ref_param(s))
      return; /* the argument the call site binds: callee_effects stores to it */
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
    /* An element of an array that is a row of an array or a member, `a[i][j]`,
     * `s.arr[i]`, `p->arr[i]`: part of that array's object, which the store
     * writes.  A pointer member or row's target is not followed (pts_of:
     * unknown); one whose type tfuse cannot tell (in a template) may be
     * either, so both. */
    if (base && (base->kind == N_SUBSCRIPT || (base->kind == N_MEMBER && base->nkid == 1)) && !base->type_pointer) {
      lvalue_objects(base, out, this_obj);
      if (base->type_array)
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
    if (n->op == OP_PLUS || n->op == OP_MINUS || n->op == OP_NOT || n->op == OP_LNOT)
      return; /* `-x`, `!x`: a value, a temporary */
    out->unknown = true; /* `__real__ x` and other forms: not followed */
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
    if (n->op >= OP_ADD && n->op <= OP_LOR)
      return; /* `a + b`: a value, bound to an `&&` parameter a temporary */
    out->unknown = true; /* `obj.*pm` and other forms: not followed */
    return;
  case N_INIT_LIST:
  case N_LITERAL:
    return; /* `d[i] = {x, y, z}`: the braced list a move assignment's `float3 &&` binds is a temporary */
  case N_CAST:
    if (n->cast_value)
      return; /* `out[i] = (floatX)v`: a value, bound to `__nv_bfloat16 &&` a temporary */
    out->unknown = true; /* `(T &)x`: not followed */
    return;
  case N_CALL: {
    /* A call returning a value (`make_float2(x, y)` bound to a move
     * assignment's `float2 &&`), or a construction: a temporary, which
     * dies with the full expression, so writing it changes nothing. */
    if ((n->sym && n->sym->kind == SYM_FUNC && !n->sym->returns_ref) || call_is_construct(n))
      return; /* (a constructor's result type is void: no reference) */
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
      /* A class that holds a pointer (a view, `float &operator[](int i)
       * { return p[i]; }`) may return a reference into memory it points
       * to: not followed. */
      if (n->sym->class_may_point)
        out->unknown = true;
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

/* A pointer into the object the lvalue lv designates (`&lv`, or lv an
 * array that decays); a member of the implicit object points anywhere. */
static void pts_into_object(Node *lv, PointsTo *out) {
  bool this_obj = false;
  lvalue_objects(lv, out, &this_obj);
  if (this_obj)
    out->unknown = true;
}

/* What a pointer-valued expression may point into. */
void pts_of(Node *n, PointsTo *out) {
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
    if (s->kind == SYM_PARAM && (holds_pointer(s) || s->is_array)) {
      /* A kernel's pointer argument points to global memory; a helper's
       * is followed at its call sites (its out_params). */
      out->memory = true;
      return;
    }
    if (s->kind == SYM_LOCAL && holds_pointer(s)) {
      if (s->pts)
        pts_union(out, s->pts);
      else
        out->unknown = true;
      return;
    }
    if (holds_pointer(s)) {
      out->unknown = true; /* a pointer held in a shared or global variable */
      return;
    }
    return; /* an integer or other value: no pointer in it */
  }
  case N_UNOP:
    if (n->op == OP_ADDR) {
      pts_into_object(n->kid[0], out);
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
    if (fn_class(n->sym) == FN_ALLOC && n->sym->name && strcmp(n->sym->name, "free")) {
      out->memory = true;
      return;
    }
    out->unknown = true;
    return;
  case N_SUBSCRIPT:
  case N_MEMBER:
    if (n->type_array) {
      /* A row `a[i]` of a 2-D array, a member `s.arr`: it decays to a
       * pointer into the object it is part of. */
      pts_into_object(n, out);
      return;
    }
    if (n->type_integral || n->type_arith)
      return;
    out->unknown = true; /* a pointer loaded from memory */
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

/* The child of a dependent call that names its callee (the overload set). */
/* The child of a dependent call that names its callee (parse.c
 * set_candidates): an operator's stands between its operands. */
static int dependent_callee_index(const Node *call) {
  return call->cand_callee >= 0 && call->cand_callee < call->nkid ? call->cand_callee : 0;
}

void call_args(const Node *call, Node **obj, bool *obj_ptr, Vec *args) {
  *obj = NULL;
  *obj_ptr = false;
  Sym *fn = call->sym;
  if (!fn && call->cand) {
    int callee = dependent_callee_index(call);
    Node *m = strip_implicit(call->kid[callee]);
    if (m && m->kind == N_MEMBER && m->nkid && !m->kid[0]->cand && m->kid[0]->kind != N_TYPE_REF) {
      *obj = m->kid[0]; /* obj.f(args), p->f(args) */
      *obj_ptr = m->arrow;
    }
    for (int i = 0; i < call->nkid; i++)
      if (i != callee && call->kid[i]->kind != N_TYPE_REF)
        vec_push(args, call->kid[i]);
    return;
  }
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

/* The group a cooperative-groups call works on: a member's object
 * (`tile.shfl(..)`, static members too), else the first argument
 * (`cg::sync(block)`, `cg::reduce(tile, ..)`). */
Node *cg_group_operand(const Node *call) {
  if (call->kind != N_CALL)
    return NULL;
  Node *c0 = call->nkid ? node_strip(call->kid[0]) : NULL;
  if (c0 && c0->kind == N_MEMBER && c0->nkid == 1)
    return c0->arrow ? NULL : node_strip(c0->kid[0]); /* through a pointer: not followed */
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  Node *g = obj && !obj_ptr ? obj : !obj && args.len ? args.items[0] : NULL;
  vec_free(&args);
  return g ? node_strip(g) : NULL;
}

/* ---- whether code changes a cooperative group held in a variable ---- */

/* Whether n only passes on the value of the expression under it (a copy). */
bool node_is_value_wrapper(const Node *n) {
  return n->kind == N_UNEXPOSED || n->kind == N_PAREN || n->kind == N_CAST ||
         (n->kind == N_CALL && n->sym && n->sym->is_ctor && n->nkid == 1);
}

static bool group_var_written(Node *n, const Sym *s, int depth);

/* Parameter i of fn, or NULL. */
Sym *param_sym(const Sym *fn, int i) {
  Node *d = fn->fn_decl;
  for (int j = 0, k = 0; d && j < d->nkid; j++)
    if (d->kid[j]->kind == N_PARAM && k++ == i)
      return d->kid[j]->sym;
  return NULL;
}

/* Whether a use of a group variable (its reference ref) may change it:
 * anything but a call on it, a copy of it, or an argument passed by value
 * or const reference (a cooperative-groups function's, or a function's
 * whose parameter is not a non-const reference), or by reference to a
 * parameter its function's body does not change. */
static bool group_use_may_write(Node *ref, int depth) {
  Node *n = ref, *p = ref->parent;
  while (p && node_is_value_wrapper(p))
    n = p, p = p->parent;
  if (!p)
    return true;
  if (p->kind == N_VAR)
    return false; /* a copy */
  if (p->kind == N_MEMBER && p->parent && p->parent->kind == N_CALL && p->parent->kid[0] == p) {
    /* The library's members are const; a member clang cannot resolve (the
     * group's type depends on a template parameter) is refused as a call. */
    Node *c = p->parent;
    if (c->sym)
      return !sym_is_cooperative_groups(c->sym);
    for (int i = 0; i < c->ncand; i++)
      if (!sym_is_cooperative_groups(c->cand[i]))
        return true;
    return false;
  }
  if (p->kind != N_CALL || (p->nkid && p->kid[0] == n))
    return true;
  int i = -1;
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(p, &obj, &obj_ptr, &args);
  for (int a = 0; a < args.len; a++)
    if (args.items[a] == n)
      i = a;
  vec_free(&args);
  if (i < 0)
    return true;
  int count = p->sym ? 1 : p->ncand;
  for (int c = 0; c < count; c++) {
    Sym *fn = p->sym ? p->sym : p->cand[c];
    if (!fn || fn->kind != SYM_FUNC)
      return true;
    if (sym_is_cooperative_groups(fn) || (i < 32 && !((fn->ref_params >> i) & 1)))
      continue;
    Sym *q = i < 32 && fn_class(fn) == FN_BODY && depth < 8 ? param_sym(fn, i) : NULL;
    if (!q || group_var_written(fn->body, q, depth + 1))
      return true;
  }
  return !count;
}

static bool group_var_written(Node *n, const Sym *s, int depth) {
  if (n->kind == N_DECL_REF && n->sym == s && group_use_may_write(n, depth))
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (group_var_written(n->kid[i], s, depth))
      return true;
  return false;
}

bool cg_group_var_written(Node *body, const Sym *s) { return group_var_written(body, s, 0); }

/* A conversion between group types (`thread_block_tile<32>` from the
 * `thread_block_tile<32, thread_block>` of tiled_partition): its operand,
 * else n itself. */
static Node *cg_converted(Node *n) {
  for (;;) {
    n = strip_implicit(n);
    if (!n || n->kind != N_CALL || !sym_is_cooperative_groups(n->sym) || !n->sym->name ||
        !(n->sym->is_ctor || !strncmp(n->sym->name, "operator ", 9)))
      return n;
    Node *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(n, &obj, &obj_ptr, &args);
    Node *from = obj ? (obj_ptr ? NULL : obj) : args.len == 1 ? args.items[0] : NULL;
    vec_free(&args);
    if (!from || node_strip(from)->cg_group == CG_NONE)
      return n;
    n = from;
  }
}

/* Whether evaluating the group's expression g does nothing but name a
 * handle: a variable, this_thread_block(), tiled_partition<N>() of such. */
bool cg_handle_expr(Node *g) {
  g = cg_converted(g);
  if (g && g->kind == N_DECL_REF)
    return g->sym && (g->sym->kind == SYM_LOCAL || g->sym->kind == SYM_PARAM);
  if (!g || g->kind != N_CALL || !sym_is_cooperative_groups(g->sym) || !g->sym->name)
    return false;
  if (!strcmp(g->sym->name, "this_thread_block"))
    return true;
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(g, &obj, &obj_ptr, &args);
  bool ok = !strcmp(g->sym->name, "tiled_partition") && !obj && args.len == 1 && cg_handle_expr(args.items[0]);
  vec_free(&args);
  return ok;
}

/* The group a tile g was partitioned from: the class of its type's ParentT;
 * for a type-erased tile (`thread_block_tile<32>`, ParentT void, whose
 * meta_group_rank is the one stored when it was converted), that of the
 * tiled_partition<N>(...) initializing it, when g names a local that nothing
 * but its declaration writes (its address never taken).  CG_NONE: not
 * known. */
CgGroup cg_tile_parent(Node *g) {
  g = cg_converted(g);
  if (!g || g->cg_group != CG_TILE)
    return CG_NONE;
  if (g->cg_parent != CG_NONE || g->kind != N_DECL_REF)
    return g->cg_parent;
  Sym *s = g->sym;
  if (!s || s->kind != SYM_LOCAL || s->is_reference || s->is_pointer || s->addr_taken)
    return CG_NONE;
  Node *f = node_root(g); /* the function that holds g */
  Node *v = node_find_var(f, s);
  Node *init = v ? var_init(v) : NULL;
  Node *p = init ? cg_converted(init) : NULL;
  if (!p || p->kind != N_CALL || !sym_is_cooperative_groups(p->sym) || !p->sym->name ||
      strcmp(p->sym->name, "tiled_partition") || p->cg_group != CG_TILE || p->cg_tile != g->cg_tile)
    return CG_NONE;
  /* A write through a pointer tfuse does not follow (`unknown`) reaches
   * only locals whose address is taken; a call it cannot see, legality
   * refuses. */
  Effects e = {0};
  effects_of(f, &e);
  bool written = false;
  for (int i = 0; i < e.writes.len; i++)
    written |= e.writes.items[i] == s;
  effects_free(&e);
  return written ? CG_NONE : p->cg_parent;
}

/* What a query of cooperative groups reads that thread mode renumbers:
 * the block's rank, size, index or extent, or the index or count of a
 * tile partitioned from the block among the block's tiles.  CGQ_NONE for
 * every other call (a tile's own rank and size are its lanes'). */
CgQuery cg_query_of(Node *call) {
  Sym *fn = call->kind == N_CALL ? call->sym : NULL;
  Node *g = fn && sym_is_cooperative_groups(fn) && fn->name ? cg_group_operand(call) : NULL;
  if (!g)
    return CGQ_NONE;
  const char *n = fn->name;
  if (g->cg_group == CG_BLOCK) {
    if (!strcmp(n, "thread_rank"))
      return CGQ_RANK;
    if (!strcmp(n, "size") || !strcmp(n, "num_threads") || !strcmp(n, "group_size"))
      return CGQ_SIZE;
    if (!strcmp(n, "thread_index"))
      return CGQ_INDEX;
    if (!strcmp(n, "group_dim") || !strcmp(n, "dim_threads"))
      return CGQ_DIM;
    return CGQ_NONE;
  }
  if (g->cg_group != CG_TILE || strncmp(n, "meta_group_", 11) || cg_tile_parent(g) != CG_BLOCK)
    return CGQ_NONE;
  return !strcmp(n, "meta_group_rank") ? CGQ_META_RANK : !strcmp(n, "meta_group_size") ? CGQ_META_SIZE : CGQ_NONE;
}

/* ---- functions tfuse knows without reading their bodies ---- */

/* CUDA's device intrinsics and math, and the C library functions device
 * code may call, by name: the table is data, passes/functions.def (how a
 * name matches is said there). */
typedef struct {
  const char *name;
  FnClass cls;
} KnownFn;

static const KnownFn known_fns[] = {
#define F(name, cls) {name, FN_##cls},
#include "functions.def"
#undef F
};

/* cls: for a member, the name of its class, else NULL. */
static const KnownFn *known_entry(const char *name, const char *cls) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof known_fns / sizeof *known_fns; i++) {
    const char *k = known_fns[i].name;
    size_t n = strlen(k);
    const char *member = strstr(k, "::*");
    if (member ? cls && !strncmp(cls, k, (size_t)(member - k))
               : !cls && (k[n - 1] == '*' ? !strncmp(name, k, n - 1) : !strcmp(name, k)))
      return &known_fns[i];
  }
  return NULL;
}

/* The class a member function belongs to, from its USR (`c:@S@__half@F@...`). */
static const char *member_class(const Sym *fn) {
  const char *u = fn->usr, *f = u ? strstr(u, "@F@") : NULL;
  if (!f)
    f = u ? strstr(u, "@FT@") : NULL;
  const char *s = NULL;
  for (const char *p = u ? strstr(u, "@S@") : NULL; p && p < f; p = strstr(p + 1, "@S@"))
    s = p + 3;
  return s ? arena_strndup(s, (size_t)(strchr(s, '@') - s)) : NULL;
}

/* A member's class from its USR: the last `@S@name`, `@ST>..@name` or
 * `@SP>..@name` before the function's own `@F@` or `@FT@`, template
 * arguments cut off. NULL for a free function. */
static const char *usr_class(const char *u) {
  const char *f = strstr(u, "@F@"), *ft = strstr(u, "@FT@");
  if (!f || (ft && ft < f))
    f = ft;
  const char *cls = NULL;
  for (const char *p = strchr(u, '@'); p && f && p < f; p = strchr(p + 1, '@')) {
    if (!strncmp(p, "@S@", 3))
      cls = p + 3;
    else if (!strncmp(p, "@ST>", 4) || !strncmp(p, "@SP>", 4)) {
      const char *at = strchr(p + 4, '@');
      cls = at && at < f ? at + 1 : NULL;
    }
  }
  if (!cls)
    return NULL;
  size_t n = strcspn(cls, "@>");
  return arena_strndup(cls, n);
}

static bool name_in(const char *name, const char *const *set) {
  for (; *set; set++)
    if (!strcmp(name, *set))
      return true;
  return false;
}

/* Cooperative groups, by what a call does whatever the group: handles and
 * their copies (coalesced_threads() too: the same in every copy that runs
 * it under the same control), and queries of the thread's place in the
 * block or tile, are values (FN_PURE); thread_block::sync is a barrier;
 * collectives (labeled and binary partitions too) are warp-synchronous.
 * Whether the call's group is one tfuse follows and what each mode allows
 * is legality's question, per call (check_cg); everything else in the
 * namespace is refused there (FN_COOPERATIVE). */
static const char *const cg_queries[] = {"thread_rank", "thread_index", "size", "num_threads", "dim_threads",
                                         "group_dim", "meta_group_rank", "meta_group_size", "group_size", NULL};
static const char *const cg_collectives[] = {"shfl", "shfl_down", "shfl_up", "shfl_xor", "any", "all", "ballot",
                                             "match_any", "match_all", "sync", "reduce", "inclusive_scan",
                                             "exclusive_scan", "labeled_partition", "binary_partition", NULL};

/* The grid's queries read blockIdx and gridDim, which block mode renumbers
 * per copy (render.c grid_query_text); its sync and validity are refused. */
static const char *const cg_grid_queries[] = {"thread_rank", "size", "num_threads", "dim_threads", "thread_index",
                                              "group_dim", "block_rank", "num_blocks", "dim_blocks", "block_index",
                                              NULL};

bool cg_is_grid_query(const Sym *fn) {
  const char *cls = fn && sym_is_cooperative_groups(fn) && fn->usr ? usr_class(fn->usr) : NULL;
  return cls && !strcmp(cls, "grid_group") && fn->name && name_in(fn->name, cg_grid_queries);
}

static FnClass cg_class(const Sym *fn) {
  const char *n = fn->name ? fn->name : "", *cls = usr_class(fn->usr);
  if (cls && !strcmp(cls, "grid_group") && !fn->is_ctor && !fn->is_defaulted && strncmp(n, "operator ", 9))
    return cg_is_grid_query(fn) ? FN_PURE : FN_COOPERATIVE;
  if (fn->is_ctor || fn->is_defaulted || !strncmp(n, "operator ", 9) || !strcmp(n, "this_thread_block") ||
      !strcmp(n, "tiled_partition") || !strcmp(n, "coalesced_threads") || !strcmp(n, "this_grid"))
    return FN_PURE;
  if (cls && !strcmp(cls, "thread_block") && !strcmp(n, "sync"))
    return FN_BARRIER;
  if (name_in(n, cg_queries))
    return FN_PURE;
  if (name_in(n, cg_collectives))
    return FN_WARP;
  return FN_COOPERATIVE;
}

/* The table applies to free functions of system headers; constructors there
 * only initialise their object. */
static const KnownFn *known_of(const Sym *fn) {
  if (!fn->in_system_header)
    return NULL;
  const char *cls = member_class(fn);
  if (cls)
    return known_entry(fn->name, cls);
  return fn->is_method || fn->is_ctor ? NULL : known_entry(fn->name, NULL);
}

bool fn_is_known(const Sym *fn) { return fn && fn->kind == SYM_FUNC && known_of(fn); }

FnClass fn_class(const Sym *fn) {
  if (!fn || fn->kind != SYM_FUNC)
    return FN_UNKNOWN;
  if (sym_is_cooperative_groups(fn))
    return cg_class(fn);
  const KnownFn *k = known_of(fn);
  if (k)
    return k->cls;
  if ((fn->in_system_header && fn->is_ctor) || fn->is_defaulted)
    return FN_PURE; /* initialises or assigns its object member by member */
  if (fn->body)
    return fn->arch_dependent ? FN_UNKNOWN : FN_BODY;
  if (fn->is_ctor || (fn->name && !strcmp(fn->name, "__cudaPushCallConfiguration")))
    return FN_PURE; /* an implicit constructor; a launch's configuration (copies its values) */
  return FN_UNKNOWN;
}

const char *fn_class_name(FnClass c) {
  switch (c) {
  case FN_UNKNOWN: return "unknown";
  case FN_BODY: return "analysed by its body";
  case FN_PURE: return "pure";
  case FN_LOAD: return "load";
  case FN_LOAD_SHARED: return "load of memory other threads write";
  case FN_STORE: return "store";
  case FN_EFFECT: return "effect";
  case FN_ALLOC: return "allocation";
  case FN_CLOCK: return "clock";
  case FN_FENCE: return "fence";
  case FN_WARP: return "warp-synchronous";
  case FN_BARRIER: return "barrier";
  case FN_BLOCK_REDUCE: return "block-wide reduction";
  case FN_COOPERATIVE: return "cooperative groups";
  case FN_UNSUPPORTED: return "unsupported";
  }
  return "?";
}

static void summary_of(Sym *fn, Effects *out);

/* Whether fn's body may write memory through a pointer it was given (what a
 * parameter of dependent type `T p` reaches if T is a pointer). */
static bool body_writes_memory(Sym *fn) {
  if (fn_class(fn) != FN_BODY)
    return fn_class(fn) == FN_STORE;
  Effects s = {0};
  summary_of(fn, &s);
  bool r = s.memory || s.unknown;
  effects_free(&s);
  return r;
}

/* What calling fn at `call` writes (fn: the callee, or one candidate of a
 * dependent call). */
static void callee_effects(Node *call, Sym *fn, Effects *e) {
  FnClass cls = fn_class(fn);
  if (cls == FN_UNKNOWN || cls == FN_UNSUPPORTED) {
    e->calls = e->unknown = true; /* a function tfuse cannot see: legality refuses it */
    return;
  }
  if (cls == FN_BARRIER)
    return;
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  Node *tmp = obj && !obj_ptr ? strip_implicit(obj) : NULL;
  bool temporary = tmp && tmp->kind == N_CALL && (tmp->sym ? tmp->sym->kind == SYM_FUNC && tmp->sym->is_ctor
                                                          : call_is_construct(tmp));
  if (fn->is_method && !fn->is_const_method && !temporary) { /* a temporary's state ends with it */
    if (!obj)
      e->this_obj = true; /* a method of the implicit object */
    else if (obj_ptr)
      store_through(obj, e);
    else
      store_to(obj, e);
  }
  bool dep_writes = fn->dep_params && body_writes_memory(fn);
  for (int i = 0; i < args.len; i++) {
    Node *a = args.items[i];
    bool known = i < 32 && i < fn->nparams;
    if (known && (fn->dep_params >> i & 1) && dep_writes) {
      store_through(a, e); /* `T p` written through, T maybe a pointer */
      continue;
    }
    if (known && !(fn->out_params >> i & 1))
      continue; /* by value, or pointer/reference to const */
    if (!known && cls != FN_BODY && cls != FN_STORE)
      continue; /* printf's `...`: read, never written */
    if (known && (fn->ref_params >> i & 1) && cls == FN_BODY && strip_implicit(a)->cg_group != CG_NONE &&
        param_sym(fn, i) && !cg_group_var_written(fn->body, param_sym(fn, i)))
      continue; /* a group passed by reference to a parameter the body never changes */
    if (known && (fn->ref_params >> i & 1))
      store_to(a, e);
    else if (known || !a->type_arith)
      store_through(a, e); /* a pointer parameter, or an argument of `...` */
  }
  vec_free(&args);
  e->calls |= fn->out_params != 0;
  switch (cls) {
  case FN_BODY: {
    Effects s = {0};
    summary_of(fn, &s);
    effects_merge(e, &s);
    e->calls |= s.writes.len || s.memory || s.unknown || dep_writes;
    effects_free(&s);
    break;
  }
  case FN_STORE:
    e->calls = e->memory = true; /* also memory no pointer argument names (a surface) */
    break;
  case FN_ALLOC:
    e->calls = e->allocates = true;
    break;
  case FN_EFFECT:
  case FN_FENCE:
  case FN_WARP:
  case FN_BLOCK_REDUCE:
  case FN_COOPERATIVE:
    e->calls = true;
    break;
  default: /* pure, loads, clocks: a value, no effect */
    break;
  }
}

/* ---- lambdas bound to locals ---- */

/* The lambda bound by `auto f = [...](...) {...};`. */
static bool lambda_is_bound(const Node *lam) {
  const Node *p = lam->parent;
  while (p && p->kind == N_UNEXPOSED)
    p = p->parent;
  return p && p->kind == N_VAR && p->sym && p->sym->lambda == lam;
}

void mark_lambdas(Node *n) {
  if (n->kind == N_VAR && n->sym && n->sym->kind == SYM_LOCAL && !n->sym->is_reference && !n->sym->is_pointer) {
    Node *init = node_strip(var_init(n));
    if (init && init->kind == N_LAMBDA)
      n->sym->lambda = init;
  }
  for (int i = 0; i < n->nkid; i++)
    mark_lambdas(n->kid[i]);
}

Node *call_lambda(const Node *call) {
  if (call->kind != N_CALL || call->nkid < 1 || !call->sym || !call->sym->name || strcmp(call->sym->name, "operator()"))
    return NULL;
  Node *obj = node_strip(call->kid[0]);
  return obj && obj->kind == N_DECL_REF && obj->sym ? obj->sym->lambda : NULL;
}

bool node_in_lambda(const Node *n) {
  for (const Node *p = n->parent; p; p = p->parent)
    if (p->kind == N_LAMBDA)
      return true;
  return false;
}

/* `f(x)` where f is a local holding a lambda (Sym.lambda): its body runs
 * here, as if inlined: its writes are the call's, a write to a local of
 * the lambda's own (a parameter, a variable of its body) excepted, and the
 * call counts as one with effects, so it runs once per copy under the
 * copy's guard. */
static void lambda_call_effects(Node *call, Node *lam, Effects *e) {
  Effects body = {0};
  for (int i = 0; i < lam->nkid; i++)
    effects_of(lam->kid[i], &body);
  for (int i = 0; i < body.writes.len; i++) {
    Sym *s = body.writes.items[i];
    if (s->decl_off == ~0u || s->decl_off < lam->begin || s->decl_off >= lam->end)
      effects_add_write(e, s);
  }
  e->memory |= body.memory;
  e->unknown |= body.unknown;
  e->this_obj |= body.this_obj;
  e->allocates |= body.allocates;
  e->calls = true;
  effects_free(&body);
  (void)call;
}

static void call_effects(Node *call, Effects *e) {
  Sym *fn = call->sym;
  Node *lam = call_lambda(call);
  if (lam) {
    lambda_call_effects(call, lam, e);
    return;
  }
  if (call->is_launch) {
    /* A kernel launch writes device memory through its arguments, never
     * the launching function's variables (they are copied). */
    e->calls = e->memory = true;
    return;
  }
  if (!fn && call->cand) {
    /* A dependent call: whatever any candidate may write. */
    for (int i = 0; i < call->ncand; i++)
      callee_effects(call, call->cand[i], e);
    if (!call->ncand)
      e->calls = e->unknown = true;
    return;
  }
  if (!fn) {
    if (!call_is_construct(call))
      e->calls = e->unknown = true; /* through a pointer, or a dependent member */
    return; /* T(x) in a template: a construction */
  }
  callee_effects(call, fn, e);
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
    Sym *outer = summary_fn;
    summary_fn = fn;
    effects_of(fn->body, &all);
    summary_fn = outer;
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
    if (!node_is_barrier(n) && !node_is_cg_block_handle(n))
      call_effects(n, e);
    break;
  case N_NEW:
    e->calls = e->allocates = true;
    break;
  case N_ASM:
    e->calls = e->unknown = true;
    break;
  case N_LAMBDA:
    /* A closure bound to a local (Sym.lambda) has no effect where it is
     * made: its body runs at the calls (lambda_call_effects). Any other
     * lambda is refused by legality.c. */
    if (lambda_is_bound(n))
      return;
    e->calls = e->unknown = true;
    break;
  default:
    break;
  }
  for (int i = 0; i < n->nkid; i++)
    effects_of(n->kid[i], e);
}

void effects_of_store(Node *lv, Effects *e) { store_to(lv, e); }

void effects_of_store_in(Sym *fn, Node *lv, Effects *e) {
  Sym *outer = summary_fn;
  summary_fn = fn;
  store_to(lv, e);
  summary_fn = outer;
}

Sym *node_store_target(Node *lhs) {
  PointsTo p = {0};
  bool this_obj = false;
  lvalue_objects(lhs, &p, &this_obj);
  Sym *s = !p.memory && !p.unknown && !this_obj && p.syms.len == 1 ? p.syms.items[0] : NULL;
  vec_free(&p.syms);
  return s && (s->kind == SYM_LOCAL || s->kind == SYM_PARAM) ? s : NULL;
}

void effects_of_call(Node *call, Effects *e) {
  if (!node_is_barrier(call) && !node_is_cg_block_handle(call))
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

/* ---- barriers and by-reference arguments: calls whose class decides ---- */

static bool names_cg_block(const Node *n) {
  if (n->kind == N_DECL_REF && n->sym && n->sym->cg_block)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (names_cg_block(n->kid[i]))
      return true;
  return false;
}

/* `cg::sync(b)` and `b.sync()` on such a handle b: bar.sync over the
 * physical block, as __syncthreads(). */
bool node_is_cg_block_sync(const Node *n) {
  if (n->kind != N_CALL || !n->sym || !sym_is_cooperative_groups(n->sym) || !n->sym->name ||
      strcmp(n->sym->name, "sync"))
    return false;
  Node *g = cg_group_operand(n);
  return names_cg_block(n) || (g && g->cg_group == CG_BLOCK);
}

/* `__syncthreads_count/and/or(p)`: a barrier that also combines p over the
 * block's threads. */
bool node_is_block_reduce(const Node *n) {
  return n->kind == N_CALL && n->sym && fn_class(n->sym) == FN_BLOCK_REDUCE;
}

static const char *const cg_warp_collectives[] = {"shfl", "shfl_down", "shfl_up", "shfl_xor", "any", "all", "ballot",
                                                  "match_any", "match_all", "reduce", "inclusive_scan",
                                                  "exclusive_scan", "sync", NULL};

/* A call into cooperative groups that may wait for other warps of the
 * block, so tfuse keeps it where a barrier may be: a tile of several warps
 * made (its constructor syncs its parent) or synchronised, or any of its
 * collectives (they meet in shared memory behind barriers over its warps);
 * the sync of a type-erased group (it may be the block's); and the same
 * where the group's type depends on a template parameter (`Group &g`:
 * maybe such a tile).  A tile of one warp, a coalesced group, the grid and
 * other groups are not (legality.c check_cg answers for them). */
static bool cg_waits_on_warps(const Node *n) {
  const char *nm = cg_call_name(n);
  if (!nm)
    return false;
  if (!strcmp(nm, "tiled_partition"))
    return n->cg_group == CG_MULTI || n->cg_group == CG_NONE;
  bool collective = false;
  for (const char *const *c = cg_warp_collectives; *c; c++)
    collective = collective || !strcmp(nm, *c);
  Node *g = collective ? cg_group_operand(n) : NULL;
  if (!g)
    return false;
  return g->cg_group == CG_MULTI || g->cg_group == CG_NONE || (g->cg_group == CG_ERASED && !strcmp(nm, "sync"));
}

bool node_is_barrier(const Node *n) {
  return n->kind == N_CALL &&
         ((n->sym && (fn_class(n->sym) == FN_BARRIER || node_is_block_reduce(n) || node_is_cg_block_sync(n))) || cg_waits_on_warps(n));
}

bool call_passes_by_ref(const Node *call, const Node *arg) {
  Node *obj;
  bool obj_ptr, ref = false;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  int count = call->sym ? 1 : call->ncand;
  for (int c = 0; c < count && !ref; c++) {
    Sym *fn = call->sym ? call->sym : call->cand[c];
    for (int a = 0; fn && a < args.len && a < 32 && !ref; a++)
      ref = node_strip(args.items[a]) == arg && (fn->ref_params >> a & 1);
  }
  vec_free(&args);
  return ref;
}
