/* reach: what a kernel may write beyond its pointer arguments, for the
 * launches -check rewrites.
 *
 * Contract: kernel_reach(u, k) walks the kernel and the helpers it calls
 * once per kernel (cached for one launch_rewrite) and classifies each store
 * effects.c left `unknown` by where its pointer came from: a pointer
 * argument, a by-value argument's bytes, the elements of a pointer argument
 * (a table of pointers), a __device__ variable; reach_calls writes the
 * Check calls that track each origin.  A store whose pointer comes from
 * anywhere else is a blind spot the runtime counts, named with its place. */
#include "passes.h"
#include "launch_int.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- -check: what a kernel may write beyond its pointer arguments ---------
 *
 * The check runtime snapshots the allocation behind each pointer argument.
 * A kernel may also write __device__ variables, and memory reached through
 * a pointer loaded from memory: from a struct argument's bytes (`p.out[i]`),
 * from the elements of a pointer argument (`rows[r][i]`, `layers[l].w[i]`),
 * or from a __device__ variable (`g_ptr[i]`).  effects.c resolves every
 * store; those it leaves `unknown` are classified here by where their
 * pointer came from, and the launch tracks each such origin
 * (Check::track_value, track_table, track_symbol); a store whose pointer
 * comes from anywhere else (two loads deep, an integer, a helper's
 * parameter, a reference, inline assembly) is a blind spot the runtime
 * counts (Check::blind).  Computed once per kernel. */

static Vec reach_cache; /* Reach*, one per kernel, for one launch_rewrite */

void reach_reset(void) { reach_cache.len = 0; }

static void push_once(Vec *v, void *x) {
  if (!vec_has_item(v, x))
    vec_push(v, x);
}

/* The index of a kernel parameter, or -1 (a helper's, or none). */
static int kernel_param_index(Reach *r, const Sym *s) {
  Node *params[64];
  int n = kernel_params(r->k, params, 64);
  for (int i = 0; i < n; i++)
    if (params[i]->sym == s)
      return i;
  return -1;
}

static unsigned pointer_origin(Reach *r, Node *body, Node *e, int depth);

/* The origin of what a load from the object `obj` designates yields: the
 * pointer stored in a variable, a member or an element. */
static unsigned loaded_from(Reach *r, Node *body, Node *obj, int depth);

/* Origin of a pointer loaded from the memory that pointer expression e
 * points into (`e[i]`, `*e`, `e->f`). */
static unsigned load_through(Reach *r, Node *body, Node *e, int depth) {
  Node *b = node_strip(e);
  if (b && b->kind == N_DECL_REF && b->sym && b->sym->kind == SYM_GLOBAL && b->sym->is_array) {
    push_once(&r->followed, b->sym); /* an element of a __device__ array of pointers */
    return PO_GLOBAL;
  }
  if (b && b->type_array)
    return loaded_from(r, body, b, depth); /* an array member or row: part of its object */
  unsigned o = pointer_origin(r, body, e, depth + 1);
  unsigned out = 0;
  if (o & PO_ARG) {
    /* Which arguments: the tables the runtime follows. */
    out |= PO_LOADED;
    Node *root = node_strip(e);
    while (root && (root->kind == N_BINOP || root->kind == N_UNOP) && root->nkid >= 1)
      root = node_strip(root->kid[0]);
    int i = root && root->kind == N_DECL_REF ? kernel_param_index(r, root->sym) : -1;
    if (i >= 0 && i < 64)
      r->tables |= 1ull << i;
    else
      out |= PO_UNTRACED; /* through a local: which argument is not kept */
  }
  if (o & ~PO_ARG)
    out |= PO_UNTRACED; /* two loads deep */
  return out;
}

static unsigned loaded_from(Reach *r, Node *body, Node *obj, int depth) {
  Node *n = node_strip(obj);
  if (!n || depth > 16)
    return PO_UNTRACED;
  switch (n->kind) {
  case N_DECL_REF: {
    Sym *s = n->sym;
    if (!s)
      return PO_UNTRACED;
    if (s->kind == SYM_PARAM && kernel_param_index(r, s) >= 0)
      return s->is_pointer ? PO_ARG : PO_VALUE;
    if (s->kind == SYM_GLOBAL && !s->is_reference) {
      push_once(&r->followed, s);
      return PO_GLOBAL;
    }
    if (s->kind == SYM_LOCAL && !s->is_reference && !s->is_array)
      return pointer_origin(r, body, n, depth + 1);
    if (s->kind == SYM_LOCAL && s->is_array)
      return PO_UNTRACED; /* a local array of pointers: its stores are not followed */
    return PO_UNTRACED;
  }
  case N_MEMBER:
    if (n->nkid == 0)
      return PO_UNTRACED;
    if (n->arrow)
      return load_through(r, body, n->kid[0], depth);
    return loaded_from(r, body, n->kid[0], depth + 1); /* a member of an object: its bytes */
  case N_SUBSCRIPT:
    return load_through(r, body, n->kid[0], depth);
  case N_UNOP:
    if (n->op == OP_DEREF)
      return load_through(r, body, n->kid[0], depth);
    return PO_UNTRACED;
  default:
    return PO_UNTRACED;
  }
}

/* The origins of the values a local pointer s is given in body. */
static unsigned local_origin(Reach *r, Node *body, Node *n, Sym *s, int depth) {
  unsigned o = 0;
  if (n->kind == N_VAR && n->sym == s) {
    Node *init = var_init(n);
    o |= init ? pointer_origin(r, body, init, depth + 1) : 0;
  }
  if (n->kind == N_ASSIGN && n->nkid == 2) {
    Node *l = node_strip(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym == s)
      o |= pointer_origin(r, body, n->kid[1], depth + 1);
  }
  if (n->kind == N_UNOP && n->op == OP_ADDR && n->nkid == 1) {
    Node *l = node_strip(n->kid[0]);
    if (l && l->kind == N_DECL_REF && l->sym == s)
      o |= PO_UNTRACED; /* written through its address */
  }
  if (n->kind == N_CALL && n->nkid > 0) {
    for (int i = 0; i < n->nkid; i++) {
      Node *a = node_strip(n->kid[i]);
      if (a && a->kind == N_DECL_REF && a->sym == s && call_passes_by_ref(n, n->kid[i]))
        o |= PO_UNTRACED; /* bound to a non-const reference */
    }
  }
  for (int i = 0; i < n->nkid; i++)
    o |= local_origin(r, body, n->kid[i], s, depth);
  return o;
}

static unsigned pointer_origin(Reach *r, Node *body, Node *e, int depth) {
  Node *n = node_strip(e);
  if (!n || depth > 16)
    return PO_UNTRACED;
  switch (n->kind) {
  case N_LITERAL:
    return 0; /* nullptr */
  case N_DECL_REF: {
    Sym *s = n->sym;
    if (!s)
      return PO_UNTRACED;
    if (s->kind == SYM_PARAM && kernel_param_index(r, s) >= 0)
      return s->is_pointer || s->is_array ? PO_ARG : PO_UNTRACED;
    if (s->kind == SYM_GLOBAL && s->is_array)
      return 0; /* the variable itself: effects.c names it a write of the variable */
    if (s->kind == SYM_GLOBAL && !s->is_reference) {
      push_once(&r->followed, s);
      return PO_GLOBAL;
    }
    if (s->kind == SYM_LOCAL && !s->is_reference && !s->is_array) {
      for (int i = 0; i < r->seen_locals.len; i++)
        if (r->seen_locals.items[i] == s)
          return 0; /* p = p + 1: nothing new */
      vec_push(&r->seen_locals, s);
      unsigned o = local_origin(r, body, body, s, depth);
      r->seen_locals.len--;
      return o;
    }
    if (s->kind == SYM_LOCAL && s->is_array)
      return 0; /* a local array: effects.c names it */
    return PO_UNTRACED;
  }
  case N_MEMBER:
  case N_SUBSCRIPT:
    return loaded_from(r, body, n, depth);
  case N_UNOP:
    if (n->op == OP_DEREF)
      return loaded_from(r, body, n, depth);
    if (n->op == OP_ADDR && n->nkid == 1)
      return 0; /* &lvalue: the caller classifies lvalues (store_origin) */
    if (n->op >= OP_POST_INC && n->op <= OP_PRE_DEC && n->nkid == 1)
      return pointer_origin(r, body, n->kid[0], depth + 1);
    return PO_UNTRACED;
  case N_BINOP:
    if (n->op == OP_COMMA && n->nkid == 2)
      return pointer_origin(r, body, n->kid[1], depth + 1);
    if ((n->op == OP_ADD || n->op == OP_SUB) && n->nkid == 2) {
      unsigned o = 0;
      for (int i = 0; i < 2; i++)
        if (!n->kid[i]->type_integral)
          o |= pointer_origin(r, body, n->kid[i], depth + 1);
      return o;
    }
    return PO_UNTRACED;
  case N_COND: {
    unsigned o = 0;
    for (int i = 1; i < n->nkid; i++)
      o |= pointer_origin(r, body, n->kid[i], depth + 1);
    return o;
  }
  case N_ASSIGN:
    return n->nkid ? pointer_origin(r, body, n->kid[n->nkid - 1], depth + 1) : PO_UNTRACED;
  case N_CAST: {
    Node *op = n->nkid ? node_strip(n->kid[n->nkid - 1]) : NULL;
    if (!op || op->type_integral)
      return op && op->kind == N_LITERAL ? 0 : PO_UNTRACED; /* a pointer made from an integer */
    return pointer_origin(r, body, op, depth + 1);
  }
  default:
    return PO_UNTRACED;
  }
}

/* The origin of the memory a store to lvalue lv writes: the origin of the
 * pointer it goes through. */
static unsigned store_origin(Reach *r, Node *body, Node *lv, int depth) {
  Node *n = node_strip(lv);
  if (!n || depth > 16)
    return PO_UNTRACED;
  switch (n->kind) {
  case N_SUBSCRIPT: {
    Node *b = node_strip(n->kid[0]);
    if (b && b->type_array && !b->type_pointer)
      return store_origin(r, body, b, depth + 1);
    return pointer_origin(r, body, n->kid[0], depth + 1);
  }
  case N_UNOP:
    if (n->op == OP_DEREF && n->nkid == 1)
      return pointer_origin(r, body, n->kid[0], depth + 1);
    if (n->op >= OP_PRE_INC && n->op <= OP_PRE_DEC && n->nkid == 1)
      return store_origin(r, body, n->kid[0], depth + 1);
    return PO_UNTRACED;
  case N_MEMBER:
    if (n->nkid == 0)
      return PO_UNTRACED;
    return n->arrow ? pointer_origin(r, body, n->kid[0], depth + 1) : store_origin(r, body, n->kid[0], depth + 1);
  case N_DECL_REF:
    return n->sym && !n->sym->is_reference ? 0 : PO_UNTRACED; /* a variable: effects.c names it */
  default:
    return PO_UNTRACED;
  }
}

/* Records origin o of a store at n: what the launch must track, or the
 * first blind spot. */
static void reach_note(Reach *r, unsigned o, Node *n, const char *what) {
  if (o & PO_VALUE)
    r->values = true;
  if ((o & PO_UNTRACED) && !r->blind)
    r->blind = arena_printf("%s, at %s", what, launch_site(r->u->src, n->begin));
}

static void reach_walk(Reach *r, Node *body, Node *n, Sym *helper);

/* A helper's body: its stores through loaded pointers are classified there;
 * one through its own parameter is the call site's. */
static void reach_helper(Reach *r, Sym *fn) {
  if (!fn || fn->kind != SYM_FUNC || !fn->body)
    return;
  for (int i = 0; i < r->seen_fns.len; i++)
    if (r->seen_fns.items[i] == fn)
      return;
  vec_push(&r->seen_fns, fn);
  reach_walk(r, fn->body, fn->body, fn);
}

/* An argument of a call that writes through it: a pointer (`atomicAdd(&a[i], v)`)
 * or an object by reference (by_ref: bound to a non-const reference
 * parameter, a number included). */
static unsigned arg_origin(Reach *r, Node *body, Node *a, bool by_ref) {
  Node *n = node_strip(a);
  if (!n)
    return 0;
  if (by_ref)
    return store_origin(r, body, n, 0);
  if (n->kind == N_UNOP && n->op == OP_ADDR && n->nkid == 1)
    return store_origin(r, body, n->kid[0], 0);
  if (n->type_pointer || n->type_array)
    return pointer_origin(r, body, n, 0);
  if (n->type_integral || n->type_arith)
    return 0;
  return store_origin(r, body, n, 0); /* an object passed by reference */
}

/* Whether argument i (counted from the call's first) of call n binds a
 * non-const reference parameter. */
static bool arg_by_ref(const Node *n, int i) {
  return n->sym && n->sym->kind == SYM_FUNC && i < 32 && (n->sym->ref_params >> i & 1);
}

static void reach_walk(Reach *r, Node *body, Node *n, Sym *helper) {
  bool in_helper = helper != NULL;
  if (!n)
    return;
  Effects e = {0};
  const char *what = NULL;
  Node *lv = NULL;
  if (n->kind == N_ASSIGN && n->nkid >= 1)
    lv = n->kid[0];
  else if (n->kind == N_UNOP && node_is_incdec(n))
    lv = n->kid[0];
  if (lv) {
    effects_of_store_in(helper, lv, &e);
    if (e.unknown) {
      unsigned o = in_helper ? PO_UNTRACED : store_origin(r, body, lv, 0);
      what = in_helper ? "a store in a called function through a pointer loaded from memory"
                       : "a store through a pointer tfuse cannot trace to an argument or a __device__ variable";
      reach_note(r, o, n, what);
    }
  } else if (n->kind == N_CALL && !n->is_launch) {
    effects_of_call(n, &e);
    if (e.unknown) {
      FnClass c = fn_class(n->sym);
      if (c == FN_BODY)
        reach_helper(r, n->sym);
      else if (!n->sym || c != FN_STORE)
        reach_note(r, PO_UNTRACED, n, "a call that writes where tfuse cannot trace");
      for (int i = call_first_arg(n); i < n->nkid; i++) {
        Node *a = node_strip(n->kid[i]);
        bool by_ref = arg_by_ref(n, i - call_first_arg(n));
        if (!a || ((a->type_integral || a->type_arith) && !by_ref))
          continue; /* a number by value leads to no memory */
        unsigned o = in_helper ? PO_UNTRACED : arg_origin(r, body, n->kid[i], by_ref);
        reach_note(r, o, n, "a call's argument pointing where tfuse cannot trace");
      }
    }
  } else if (n->kind == N_ASM) {
    effects_of(n, &e);
    if (e.unknown)
      reach_note(r, PO_UNTRACED, n, "inline assembly");
  }
  effects_free(&e);
  for (int i = 0; i < n->nkid; i++)
    reach_walk(r, body, n->kid[i], helper);
}

/* What the check runtime must track for kernel k beyond its pointer
 * arguments (computed on first use). */
Reach *kernel_reach(Unit *u, Kernel *k) {
  for (int i = 0; i < reach_cache.len; i++) {
    Reach *r = reach_cache.items[i];
    if (r->k == k)
      return r;
  }
  Reach *r = arena_alloc(sizeof *r);
  memset(r, 0, sizeof *r);
  r->u = u;
  r->k = k;
  vec_push(&reach_cache, r);
  Node *body = k->fn->sym ? k->fn->sym->body : NULL;
  if (!body)
    return r;
  effects_prepare(u, k);
  Effects e = {0};
  effects_of(body, &e);
  for (int i = 0; i < e.writes.len; i++) {
    Sym *s = e.writes.items[i];
    if (s->kind == SYM_GLOBAL)
      push_once(&r->written, s);
  }
  if (e.unknown)
    reach_walk(r, body, body, NULL);
  r->heap = e.allocates;
  effects_free(&e);
  return r;
}

/* How host code at offset `at` names the variable s (`::ns::g`), or NULL
 * when it cannot: declared after `at` or in another file, a class's static
 * member, a template's. */
static char *global_name(const Unit *u, const Sym *s, unsigned at) {
  if (s->decl_off == ~0u || s->decl_off >= at || source_file_at(u->src, s->decl_off) != source_file_at(u->src, at))
    return NULL;
  const char *usr = s->usr;
  if (!usr || strncmp(usr, "c:", 2) || strstr(usr, "@S@") || strstr(usr, "@ST") || strstr(usr, "@C@") ||
      strstr(usr, "@F@"))
    return NULL;
  Buf q = {0};
  buf_printf(&q, "::");
  for (const char *p = strstr(usr, "@N@"); p; p = strstr(p + 1, "@N@")) {
    const char *b = p + 3, *e = b;
    while (*e && *e != '@')
      e++;
    buf_printf(&q, "%.*s::", (int)(e - b), b);
  }
  buf_printf(&q, "%s", s->name);
  char *name = arena_strndup(q.data, q.len);
  buf_free(&q);
  return name;
}

/* The check runtime's calls for what kernel k may write besides its
 * pointer arguments' allocations: __device__ variables, and blind spots. */
void reach_calls(Unit *u, Reach *r, unsigned at, Buf *track) {
  for (int pass = 0; pass < 2; pass++) {
    Vec *v = pass ? &r->followed : &r->written;
    for (int i = 0; i < v->len; i++) {
      Sym *s = v->items[i];
      if (pass && vec_has_item(&r->written, s))
        continue; /* written and followed: once, following */
      bool follow = vec_has_item(&r->followed, s);
      char *name = global_name(u, s, at);
      if (name)
        buf_printf(track, "__tf_check.track_symbol(%s, \"%s\"%s); ", name, s->name, follow ? ", true" : "");
      else
        buf_printf(track, "__tf_check.blind(TFUSE_CHECK_UNNAMED, \"the __device__ variable '%s', which this "
                          "launch cannot name\"); ", s->name);
    }
  }
  if (r->blind)
    buf_printf(track, "__tf_check.blind(TFUSE_CHECK_UNTRACED, \"%s\"); ", r->blind);
}
