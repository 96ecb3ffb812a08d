/* emit: a kernel's statements written for the copies, in order.
 *
 * Contract: emit_stmt writes one statement of the kernel's body as the
 * copies run it (fuse.c's opening comment lists the rules): a uniform
 * statement once, a varying or effectful one per copy under the guards
 * render.c says it needs, a varying `if` predicated, a varying loop or
 * switch whole per copy, declarations split per copy (replicated shared
 * memory: replicas.c; promoted registers: promote_emit.c), a varying
 * if/else that assigns one place as a select, uniform loads hoisted out
 * of per-copy statements, and in block mode warp-synchronous calls of dead
 * copies run unguarded into temporaries. */
#include "fuse.h"
#include <stdlib.h>
#include <string.h>

/* ---- output ---- */

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

void emit_stmt(Fuse *F, Node *s, Ctx *ctx) {
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
