/* launch: rewrites the launch sites of coarsened kernels.
 *
 * Contract: requires fuse_kernel on every kernel in `kernels` (they must
 * agree about K); records one edit per `k<<<grid, block[, smem[, stream]]>>>(args)`
 * launch of those kernels in the file (DESIGN.md section 5).  The new
 * extents are computed from the user's own expressions by helpers of the
 * prelude, so grid and block may be ints, dim3 variables or dim3(...).
 *
 *   block mode:  k<<<g, b>>>(x);
 *            ->  { const dim3 __tf_grid = (g); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), b>>>(
 *                  ::tfuse_rt::grid_extent(__tf_grid, 0), x); }
 *   thread mode: k<<<g, b>>>(x);
 *            ->  k<<<g, ::tfuse_rt::coarsen_block(b, 1, 4u, "k", "file.cu:12")>>>(x);
 *
 * With -check the original kernel is kept as k__tf_orig, and a launch
 * becomes (runtime/include/tfuse/check.h):
 *   { const dim3 __tf_grid = (g); const dim3 __tf_block = (b);
 *     if (::tfuse_rt::check_on()) {
 *       ::tfuse_rt::Check __tf_check("k", "file.cu:12", 0);
 *       __tf_check.track(out, "out");           (each pointer to non-const)
 *       __tf_check.track_value(p, "p");         (what the kernel writes beyond
 *       __tf_check.track_table(rows, "rows");    its pointer arguments: see
 *       __tf_check.track_symbol(::g, "g");       kernel_reach, below)
 *       __tf_check.blind(TFUSE_CHECK_UNTRACED, "...");
 *       k__tf_orig<<<__tf_grid, __tf_block>>>(out, x);
 *       __tf_check.original_done();
 *       k<<<new grid, new block>>>(out, x);
 *       __tf_check.coarsened_done();
 *     } else {
 *       k<<<new grid, new block>>>(out, x);
 *     } }
 * Arguments with side effects are evaluated once, into `auto` locals.
 *
 * Every other use of a coarsened kernel's name is a function pointer's
 * value (the original is kept, and launches through pointers dispatch on
 * it), a kernel argument of the runtime's functions (cudaFuncGetAttributes,
 * cudaFuncSetAttribute, the occupancy calculators, cudaLaunchKernel,
 * cudaLaunchCooperativeKernel, cudaLaunchKernelEx: rewritten so that they
 * describe and launch the logical kernel, see kernel_apis), or an error at
 * the name, naming the kernel.  Each check and each error is about the
 * kernels in `kernels` alone, and nothing is left from an earlier call, so
 * the driver may call this with one kernel to learn whether its launches
 * can be rewritten, and again with the kernels that can.
 */
#include "passes.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned b, e;
} Span;

/* Whether the comma at off lies inside one of the arguments the parse
 * found (args, spelled in [b, e)): `f<A, B>` and `a < b, c > d` read
 * alike as text, and only the parse tells a template's arguments from two
 * of the list's. */
static bool inside_arg(Node *const *args, int nargs, unsigned b, unsigned e, unsigned off) {
  for (int i = 0; i < nargs; i++) {
    const Node *a = args[i];
    if (a && !a->in_macro && !arg_is_default(a) && a->begin >= b && a->end <= e && a->begin < off && off < a->end)
      return true;
  }
  return false;
}

/* Splits the text of a list, between `<<<` and `>>>` or a call's
 * parentheses, at its top-level commas outside the arguments args (those
 * the parse found, nargs of them; none: the text alone). */
static int split_config(const Source *src, unsigned b, unsigned e, Node *const *args, int nargs, Span *parts,
                        int max) {
  const char *t = src->text;
  int n = 0, depth = 0;
  unsigned start = b;
  for (unsigned i = b; i < e; i++) {
    size_t j = skip_comment_or_literal(t, e, i); /* a comma in a comment is none of the list's */
    if (j != i) {
      i = (unsigned)j - 1;
      continue;
    }
    char c = t[i];
    if (c == '(' || c == '[' || c == '{')
      depth++;
    else if (c == ')' || c == ']' || c == '}')
      depth--;
    else if (c == ',' && depth == 0 && !inside_arg(args, nargs, b, e, i)) {
      if (n < max)
        parts[n++] = (Span){start, i};
      start = i + 1;
    }
  }
  if (n < max)
    parts[n++] = (Span){start, e};
  return n;
}

static char *span_text(const Source *src, Span s) {
  while (s.b < s.e && (src->text[s.b] == ' ' || src->text[s.b] == '\n' || src->text[s.b] == '\t'))
    s.b++;
  while (s.e > s.b && (src->text[s.e - 1] == ' ' || src->text[s.e - 1] == '\n' || src->text[s.e - 1] == '\t'))
    s.e--;
  return arena_strndup(src->text + s.b, s.e - s.b);
}

/* The `(` opening a launch's arguments, after its `>>>` at ce (or the
 * call's end where there is none). */
static unsigned args_open(const Source *src, const Node *call, unsigned ce) {
  unsigned lp = ce + 3;
  while (lp < call->end && src->text[lp] != '(')
    lp++;
  return lp;
}

static bool in_statement_position(const Node *call) {
  const Node *p = call->parent;
  while (p && p->kind == N_UNEXPOSED)
    p = p->parent;
  if (!p)
    return false;
  switch (p->kind) {
  case N_COMPOUND:
  case N_CASE:
  case N_LABEL:
  case N_ATTRIBUTED:
    return true;
  case N_IF:
  case N_FOR:
  case N_WHILE:
  case N_DO:
    return p->cond != call && p->init != call && p->inc != call;
  default:
    return false;
  }
}


const char *original_name(const Kernel *k) { return arena_printf("%s__tf_orig", k->sym->name); }

/* The coarsened dimensions and their factors: one, or several (nested
 * calls of the prelude's helpers, x first). */
static int launch_dims(const Kernel *k, int *dims, int *factors) {
  if (!params_multi(&k->p)) {
    dims[0] = k->p.dim;
    factors[0] = k->p.factor;
    return 1;
  }
  int n = 0;
  for (int d = 0; d < 3; d++)
    if (k->p.kd[d] > 1) {
      dims[n] = d;
      factors[n++] = k->p.kd[d];
    }
  return n;
}

char *grid_params_text(const Kernel *k, bool named) {
  int dims[3], f[3], n = launch_dims(k, dims, f);
  Buf b = {0};
  for (int i = 0; i < n; i++)
    buf_printf(&b, "%sunsigned int%s%s", i ? ", " : "", named ? " __tf_grid_" : "", named ? dim_name(dims[i]) : "");
  if (k->dyn_shared)
    buf_printf(&b, ", unsigned int%s", named ? " __tf_dsmem" : "");
  char *text = arena_strdup(b.data);
  buf_free(&b);
  return text;
}

/* Block mode: the grid of the merged blocks, from the dim3 `grid`. */
static char *coarsened_grid(const Kernel *k, const char *grid) {
  int dims[3], f[3], n = launch_dims(k, dims, f);
  char *t = (char *)grid;
  for (int i = 0; i < n; i++)
    t = arena_printf("::tfuse_rt::coarsen_grid(%s, %d, %du)", t, dims[i], f[i]);
  return t;
}

/* Block mode: the original extents the kernel takes first, `grid_extent(g, 0), grid_extent(g, 1)`. */
static char *grid_extents(const Kernel *k, const char *grid) {
  int dims[3], f[3], n = launch_dims(k, dims, f);
  Buf b = {0};
  for (int i = 0; i < n; i++)
    buf_printf(&b, "%s::tfuse_rt::grid_extent(%s, %d)", i ? ", " : "", grid, dims[i]);
  char *t = arena_strdup(b.data);
  buf_free(&b);
  return t;
}

/* Thread mode: the block of the merged threads, checked per dimension
 * (coarsen_block_warps: and that the warps stay whole). */
static char *coarsened_block(const Kernel *k, const char *block, const char *site) {
  int dims[3], f[3], n = launch_dims(k, dims, f);
  char *t = (char *)block;
  for (int i = 0; i < n; i++)
    t = arena_printf("::tfuse_rt::coarsen_block%s(%s, %d, %du, \"%s\", \"%s\")", k->whole_warps ? "_warps" : "", t,
                     dims[i], f[i], k->sym->name, site);
  return t;
}

/* The text of [b, e) with the name at `name_off` renamed to the original's. */
static char *renamed_text(const Source *src, const Kernel *k, unsigned b, unsigned e, unsigned name_off) {
  size_t n = strlen(k->sym->name);
  return arena_printf("%.*s%s%.*s", (int)(name_off - b), src->text + b, original_name(k),
                      (int)(e - name_off - n), src->text + name_off + n);
}

void launch_keep_original(Unit *u, Kernel *k, EditList *el, const char *comment) {
  const Source *src = u->src;
  Node *fn = k->fn;
  edit_insert(el, fn->end,
              arena_printf("\n\n/* %s */\n%s", comment, renamed_text(src, k, fn->begin, fn->end, fn->loc)));
  for (int i = 0; i < u->fn_decls.len; i++) {
    Node *d = u->fn_decls.items[i];
    if (d->sym == k->sym && d->end > d->loc)
      edit_insert(el, d->begin, arena_printf("%s;\n", renamed_text(src, k, d->begin, d->end, d->loc)));
  }
}

/* The kernel's parameter nodes, in order. */
static int kernel_params(Kernel *k, Node **out, int max) {
  int n = 0;
  for (int i = 0; i < k->fn->nkid && n < max; i++)
    if (k->fn->kid[i]->kind == N_PARAM)
      out[n++] = k->fn->kid[i];
  return n;
}

/* The end (past the `;`) of a launch that is a statement of its own, or 0
 * after an error: the rewrites that need a block around it. */
static unsigned launch_statement_end(Unit *u, Node *call, Kernel *k) {
  if (!in_statement_position(call)) {
    error_at(call->begin, "launch of '%s' is part of a larger expression; make it a statement of its own so "
                          "tfuse can rewrite it", k->sym->name);
    return 0;
  }
  unsigned end = stmt_end(u->src, call);
  if (end == call->end) {
    error_at(call->begin, "cannot find the ';' ending this launch of '%s'", k->sym->name);
    return 0;
  }
  return end;
}

/* A launch's callee text (`k`, `ns::k<T>`) with the kernel's name, its
 * last whole-word occurrence, renamed to `to`; NULL if it is not there. */
/* The last whole-word occurrence of name in callee, or NULL. */
static const char *last_word(const char *callee, const char *name) {
  const char *at = NULL;
  size_t nlen = strlen(name);
  for (const char *p = strstr(callee, name); p; p = strstr(p + 1, name))
    if ((p == callee || !ident_char(p[-1])) && !ident_char(p[nlen]))
      at = p;
  return at;
}

static char *callee_renamed(const char *callee, const char *name, const char *to) {
  const char *p = last_word(callee, name);
  return p ? arena_printf("%.*s%s%s", (int)(p - callee), callee, to, p + strlen(name)) : NULL;
}

/* Whether a callee naming the kernel through a qualifier (`ns::k`) names
 * it through the kernel's own namespaces, where a renamed kernel (-check's
 * original, -factor auto's variants) is declared beside it; `other::k`
 * through a using-declaration would not find those.  The namespaces come
 * from the kernel's USR (`c:@N@a@N@b@F@k#...`). */
static bool callee_in_own_scope(const Kernel *k, const char *callee) {
  const char *at = last_word(callee, k->sym->name);
  Buf q = {0};
  for (const char *p = callee; at && p < at; p++)
    if (*p != ' ' && *p != '\t' && *p != '\n')
      buf_add(&q, p, 1);
  const char *qual = q.data ? q.data : "";
  if (!strncmp(qual, "::", 2))
    qual += 2;
  Buf ns = {0};
  for (const char *u = k->sym->usr ? strstr(k->sym->usr, "@N@") : NULL; u; u = strstr(u + 1, "@N@")) {
    const char *b = u + 3, *e = b;
    while (*e && *e != '@')
      e++;
    buf_printf(&ns, "%.*s::", (int)(e - b), b);
  }
  bool ok = !*qual || (ns.data && !strcmp(qual, ns.data) && !strstr(k->sym->usr, "@aN"));
  buf_free(&q);
  buf_free(&ns);
  return ok;
}

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

/* Where a pointer value came from: a set of these bits. */
enum {
  PO_ARG = 1,      /* a pointer argument, or arithmetic on one */
  PO_VALUE = 2,    /* loaded from a by-value argument's bytes */
  PO_LOADED = 4,   /* loaded from memory a pointer argument points to (its table) */
  PO_GLOBAL = 8,   /* loaded from a __device__ variable's bytes */
  PO_UNTRACED = 16 /* anything else */
};

typedef struct {
  Unit *u;
  Kernel *k;
  Vec written;       /* Sym*: __device__ variables the kernel writes */
  Vec followed;      /* Sym*: __device__ variables holding pointers it writes through */
  unsigned long long tables; /* bit i: parameter i's elements hold pointers it writes through */
  bool values;       /* it writes through pointers in by-value arguments */
  const char *blind; /* the first store tfuse cannot trace, as words, or NULL */
  bool heap;         /* it allocates or frees device-heap memory (new, delete, malloc, free) */
  Vec seen_fns;      /* Sym*: helpers walked */
  Vec seen_locals;   /* Sym*: locals being classified (a cycle is resolved as nothing new) */
} Reach;

static Vec reach_cache; /* Reach*, one per kernel, for one launch_rewrite */

/* Whether v holds x. */
static bool vec_has(const Vec *v, const void *x) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == x)
      return true;
  return false;
}

static void push_once(Vec *v, void *x) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == x)
      return;
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
static char *launch_site(const Source *src, unsigned off);

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
static Reach *kernel_reach(Unit *u, Kernel *k) {
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
static void reach_calls(Unit *u, Reach *r, unsigned at, Buf *track) {
  for (int pass = 0; pass < 2; pass++) {
    Vec *v = pass ? &r->followed : &r->written;
    for (int i = 0; i < v->len; i++) {
      Sym *s = v->items[i];
      if (pass && vec_has(&r->written, s))
        continue; /* written and followed: once, following */
      bool follow = vec_has(&r->followed, s);
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

static char *kernel_address(const Unit *u, const Kernel *k, const Node *call, const char *callee);
static bool threads_may_not_fit(const Unit *u, Node *call, Kernel *k, const char *block, const char *addr);
static bool block_text_pure(const char *text);
static char *thread_serve_condition(Node *call, const Kernel *k, const char *block);
static void fallback_record(Buf *b, const Kernel *k, const char *site);

/* -check: the checked launch, replacing the whole statement; where the
 * coarsened kernel may not serve the launch's shape, `if (!(served))` runs
 * the original alone first. */
static bool rewrite_checked(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned cb, EditList *el,
                            const char *site) {
  const Source *src = u->src;
  const char *t = src->text;
  unsigned end = launch_statement_end(u, call, k);
  if (!end)
    return false;
  char *callee = arena_strndup(t + call->begin, cb - call->begin);
  /* The original's callee: the kernel's name renamed (k<T> -> k__tf_orig<T>). */
  char *orig_callee = callee_renamed(callee, k->sym->name, original_name(k));
  if (!orig_callee) {
    error_at(call->begin, "cannot find the name of '%s' in this launch", k->sym->name);
    return false;
  }
  if (!callee_in_own_scope(k, callee)) {
    error_at(call->begin, "-check cannot route this launch of '%s': it names the kernel through a qualifier other "
                          "than its namespace's, where the kept original is not declared", k->sym->name);
    return false;
  }

  Reach *reach = kernel_reach(u, k);
  /* Arguments, evaluated once: simple ones as written, others in locals. */
  Node *params[64];
  int npar = kernel_params(k, params, 64);
  int first = 2; /* callee, configuration, then the arguments */
  Buf pre = {0}, args = {0}, plain = {0}, track = {0};
  int nargs = 0;
  for (int i = first; i < call->nkid; i++) {
    Node *a = call->kid[i];
    if (a->end <= a->begin)
      continue; /* a default argument */
    char *text = arena_strndup(t + a->begin, a->end - a->begin);
    char *use = text;
    if (node_has_side_effects(a)) {
      use = arena_printf("__tf_a%d", nargs);
      buf_printf(&pre, "auto %s = (%s); ", use, text);
    }
    buf_printf(&args, "%s%s", nargs ? ", " : "", use);
    buf_printf(&plain, "%s%s", nargs ? ", " : "", text);
    Sym *ps = nargs < npar ? params[nargs]->sym : NULL;
    if (ps && nargs < 64 && (reach->tables >> nargs & 1))
      buf_printf(&track, "__tf_check.track_table(%s, \"%s\"); ", use, ps->name);
    else if (ps && ps->is_pointer && !ps->pointee_const && ps->pointee_fp)
      /* a struct of floats or of doubles: compared by field, within TFUSE_CHECK_ULP */
      buf_printf(&track, "__tf_check.track_as(%s, \"%s\", %s, %d); ", use, ps->name,
                 ps->pointee_fp == 4 ? "TFUSE_CHECK_FLOAT" : "TFUSE_CHECK_DOUBLE", ps->pointee_fp);
    else if (ps && ps->is_pointer && !ps->pointee_const)
      buf_printf(&track, "__tf_check.track(%s, \"%s\"); ", use, ps->name);
    else if (ps && reach->values && !ps->is_pointer && (!ps->is_scalar || ps->type_dependent))
      buf_printf(&track, "__tf_check.track_value(%s, \"%s\"); ", use, ps->name);
    nargs++;
  }
  reach_calls(u, reach, call->begin, &track);
  char *smem = np > 2 ? span_text(src, parts[2]) : NULL;
  char *stream = np > 3 ? span_text(src, parts[3]) : NULL;
  /* A stream whose text may not be evaluated twice (`next_stream()`) is
   * evaluated once, before the capture test (check_on(stream)) that reads
   * it and the launch that uses it. */
  char *stream_once = stream && !block_text_pure(stream) ? stream : NULL;
  if (stream_once)
    stream = "__tf_stream_once";
  char *new_grid = k->p.mode == MODE_BLOCK ? coarsened_grid(k, "__tf_grid") : "__tf_grid";
  char *new_block = k->p.mode == MODE_THREAD ? coarsened_block(k, "__tf_block", site) : "__tf_block";
  char *extent = k->p.mode == MODE_BLOCK ? grid_extents(k, "__tf_grid") : NULL;
  const char *sep = extent && nargs ? ", " : "";
  char *cfg_checked = arena_printf("%s%s%s", np > 2 ? ", __tf_smem" : "", np > 3 ? ", __tf_stream" : "", "");
  char *cfg_plain = arena_printf("%s%s%s%s", np > 2 ? ", " : "", np > 2 ? smem : "", np > 3 ? ", " : "",
                                 np > 3 ? stream : "");
  char *ind = source_indent(src, call->begin);

  /* A shape the coarsened kernel may not serve runs the original alone. */
  char *cond = NULL;
  if (k->p.mode == MODE_THREAD) {
    cond = thread_serve_condition(call, k, "__tf_block");
  } else {
    char *addr = kernel_address(u, k, call, callee);
    if (threads_may_not_fit(u, call, k, "__tf_block", addr))
      cond = arena_printf("::tfuse_rt::serves_threads(%s, __tf_block, __tf_fb)", addr);
  }
  Buf b = {0};
  buf_puts(&b, "{ ");
  if (cond)
    fallback_record(&b, k, site);
  buf_printf(&b, "const dim3 __tf_grid = (%s); const dim3 __tf_block = (%s);", span_text(src, parts[0]),
             span_text(src, parts[1]));
  if (stream_once)
    buf_printf(&b, " const cudaStream_t __tf_stream_once = (%s);", stream_once);
  buf_puts(&b, "\n");
  if (cond) {
    buf_printf(&b, "%s  if (!(%s)) {\n", ind, cond);
    buf_printf(&b, "%s    if (::tfuse_rt::check_on()) tfuse_check_ran_original(\"%s\", \"%s\");\n", ind,
               k->sym->name, site);
    buf_printf(&b, "%s    %s<<<__tf_grid, __tf_block%s>>>(%s);\n", ind, orig_callee, cfg_plain,
               plain.data ? plain.data : "");
    buf_printf(&b, "%s  } else ", ind);
    k->dispatches++;
  } else {
    buf_printf(&b, "%s  ", ind);
  }
  if (reach->heap) {
    /* Run twice from one state, a kernel that frees device-heap memory
     * would free it twice: the coarsened kernel runs alone, unchecked. */
    buf_printf(&b, "{\n%s    if (::tfuse_rt::check_on()) tfuse_check_ran_once(\"%s\", \"%s\");\n", ind,
               k->sym->name, site);
  } else {
    /* The stream, where the launch names one, for the capture test
     * (check_on(stream)). */
    const char *on = np > 3 ? arena_printf("(%s)", stream) : "0";
    buf_printf(&b, "if (::tfuse_rt::check_on(%s)) {\n", on);
    if (np > 2)
      buf_printf(&b, "%s    const size_t __tf_smem = (%s);\n", ind, smem);
    if (np > 3)
      buf_printf(&b, "%s    const cudaStream_t __tf_stream = (%s);\n", ind, stream);
    if (pre.len)
      buf_printf(&b, "%s    %.*s\n", ind, (int)pre.len - 1, pre.data);
    buf_printf(&b, "%s    ::tfuse_rt::Check __tf_check(\"%s\", \"%s\", %s);\n", ind, k->sym->name, site,
               np > 3 ? "__tf_stream" : "0");
    if (track.len)
      buf_printf(&b, "%s    %.*s\n", ind, (int)track.len - 1, track.data);
    buf_printf(&b, "%s    %s<<<__tf_grid, __tf_block%s>>>(%s);\n", ind, orig_callee, cfg_checked,
               args.data ? args.data : "");
    buf_printf(&b, "%s    __tf_check.original_done();\n", ind);
    buf_printf(&b, "%s    if (__tf_check.again()) { %s<<<__tf_grid, __tf_block%s>>>(%s); __tf_check.again_done(); }\n",
               ind, orig_callee, cfg_checked, args.data ? args.data : "");
    buf_printf(&b, "%s    %s<<<%s, %s%s>>>(%s%s%s);\n", ind, callee, new_grid, new_block, cfg_checked,
               extent ? extent : "", sep, args.data ? args.data : "");
    buf_printf(&b, "%s    __tf_check.coarsened_done();\n", ind);
    buf_printf(&b, "%s  } else {\n", ind);
  }
  buf_printf(&b, "%s    %s<<<%s, %s%s>>>(%s%s%s);\n", ind, callee, new_grid, new_block, cfg_plain,
             extent ? extent : "", sep, plain.data ? plain.data : "");
  buf_printf(&b, "%s  }\n%s}", ind, ind);
  edit_replace(el, call->begin, end - call->begin, b.data);
  buf_free(&b);
  buf_free(&pre);
  buf_free(&args);
  buf_free(&plain);
  buf_free(&track);
  return true;
}

/* "file.cu:LINE" of a launch, for the runtimes' messages. */
static char *launch_site(const Source *src, unsigned off) {
  const char *path;
  int line, col;
  source_locate(src, off, &path, &line, &col);
  const char *slash = strrchr(path, '/');
  return arena_printf("%s:%d", slash ? slash + 1 : path, line);
}

unsigned launch_chevrons(const Source *src, unsigned off) {
  const char *t = src->text;
  unsigned p = source_skip_space(src, off);
  if (p < src->len && t[p] == '<' && strncmp(t + p, "<<<", 3) != 0) {
    int depth = 0; /* template arguments */
    for (; p < src->len; p++) {
      if (t[p] == '<')
        depth++;
      else if (t[p] == '>' && --depth == 0)
        break;
      else if (t[p] == ';' || t[p] == '{')
        return 0;
    }
    p = source_skip_space(src, p + 1);
  }
  return p + 3 <= src->len && !strncmp(t + p, "<<<", 3) ? p : 0;
}

/* A launch written in a macro's argument (`TIME(k<<<g, b>>>(x))`) has its
 * text in the file, but its extent is the whole invocation. Its own text
 * runs from the kernel's name (where the cursor's location is spelled)
 * through the `)` that closes the arguments: found here, and made the
 * node's extent, so that the rewrite and the check for launches not
 * rewritten see the launch itself. False if the text is not there (the
 * launch is in a macro's body). */
/* Past a qualifier at off (`::`, `ns::`, `ns::T<int>::`, repeated): where
 * the unqualified name starts. */
static unsigned skip_qualifier(const Source *src, unsigned off, unsigned end) {
  const char *t = src->text;
  for (unsigned p = off;;) {
    unsigned q = p;
    while (q < end && ident_char(t[q]))
      q++;
    if (q < end && t[q] == '<' && q > p) { /* template arguments of a class */
      int depth = 0;
      for (; q < end; q++) {
        depth += t[q] == '<' ? 1 : t[q] == '>' ? -1 : 0;
        if (depth == 0 || t[q] == ';' || t[q] == '{')
          break;
      }
      q = q < end && t[q] == '>' ? q + 1 : end;
    }
    q = source_skip_space(src, q);
    if (q + 2 > end || t[q] != ':' || t[q + 1] != ':')
      return p;
    p = source_skip_space(src, q + 2);
  }
}

static bool locate_launch_text(Unit *u, Node *call, Kernel *k) {
  const Source *src = u->src;
  const char *t = src->text, *name = k->sym->name;
  size_t nl = strlen(name);
  unsigned b = call->loc;
  /* A qualified name (`img::scale<<<...>>>`, `::scale`, a using's
   * namespace) is the launch's own text: its callee is copied whole. */
  unsigned at = call->in_macro || call->end <= call->begin ? call->begin
                                                           : skip_qualifier(src, call->begin, call->end);
  bool macro_arg = call->in_macro || call->end <= call->begin || b < call->begin || b >= call->end ||
                   strncmp(t + at, name, nl) != 0 || ident_char(t[at + nl]);
  if (!macro_arg)
    return true;
  if (b + nl > src->len || strncmp(t + b, name, nl) != 0 || (b > 0 && ident_char(t[b - 1])))
    return false;
  unsigned p = launch_chevrons(src, b + (unsigned)nl);
  if (!p)
    return false;
  const char *close = strstr(t + p, ">>>");
  if (!close)
    return false;
  unsigned lp = source_skip_space(src, (unsigned)(close - t) + 3);
  if (lp >= src->len || t[lp] != '(')
    return false;
  unsigned e = text_match(src, lp, (unsigned)src->len);
  if (e <= lp || t[e - 1] != ')')
    return false;
  call->begin = b;
  call->end = e;
  call->in_macro = false;
  call->launch_in_macro_arg = true;
  return true;
}

static bool source_starts_with(const Source *src, unsigned off, const char *word) {
  size_t n = strlen(word);
  return off + n <= src->len && !strncmp(src->text + off, word, n);
}

/* The number of arguments in the angle brackets opening at `open` (the
 * commas outside nested brackets and parentheses, plus one), -1 where they
 * do not close or hold a pack (`...`). */
static int angle_arity(const char *open) {
  int depth = 0, n = 1;
  for (const char *p = open; *p; p++) {
    if (*p == '<' || *p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == '>' || *p == ')' || *p == ']' || *p == '}') {
      if (--depth == 0)
        return *p == '>' ? n : -1;
    } else if (*p == ',' && depth == 1)
      n++;
    else if (!strncmp(p, "...", 3))
      return -1;
  }
  return -1;
}

static bool name_overloaded(const Unit *u, const Kernel *k) {
  for (int i = 0; i < u->functions.len + u->fn_decls.len; i++) {
    Node *f = i < u->functions.len ? u->functions.items[i] : u->fn_decls.items[i - u->functions.len];
    if (f->sym && f->sym != k->sym && f->sym->name && !strcmp(f->sym->name, k->sym->name))
      return true;
  }
  return false;
}

/* Whether the callee of a launch of k names one function (the prelude's
 * launch checks and the opt-in of dyn_shared_opt_in take its address): not
 * where another function of the unit has its name (an overload set; but
 * see kernel_address), nor where a template kernel's launch deduces some of
 * its arguments (`k` or `k<256>` of `template <int B, class T>`: no
 * function until deduced). */
static bool callee_nameable(const Unit *u, const Kernel *k, const char *callee) {
  if (name_overloaded(u, k))
    return false;
  const Source *src = u->src;
  if (!source_starts_with(src, k->fn->begin, "template"))
    return true;
  const char *params = strchr(src->text + k->fn->begin, '<');
  const char *args = strchr(callee, '<');
  int want = params ? angle_arity(params) : -1;
  return args && want > 0 && angle_arity(args) == want;
}

/* The address of the coarsened kernel at a launch, for the prelude's
 * checks: the callee, or where its name is also a host function's (llm.c
 * names the launching function as its kernel) the callee cast to the
 * coarsened kernel's type, `static_cast<void (*)(unsigned int
 * __tf_grid_x, float *a, int n)>(k)`, spelled from the grid parameters
 * fuse.c adds and the parameters as written (names are allowed in a
 * function type).  Only for a kernel of the global namespace that is not a
 * template, defined before the launch (its parameters' types are declared
 * there), whose parameters hold no default argument, comment or macro
 * line; else NULL. */
static char *kernel_address(const Unit *u, const Kernel *k, const Node *call, const char *callee) {
  if (callee_nameable(u, k, callee))
    return (char *)callee;
  const Source *src = u->src;
  const char *usr = k->sym->usr, *scope = usr ? strstr(usr, "@F@") : NULL;
  bool global = scope && !memchr(usr, '@', scope - usr); /* `c:@F@k`, `c:file.cu@F@k`: no namespace or class */
  if (!name_overloaded(u, k) || source_starts_with(src, k->fn->begin, "template") || strstr(callee, "::") ||
      !unit_precedes(u, k->fn->end, call->begin) || !global)
    return NULL;
  unsigned open = k->fn->loc, close = fn_params_close(src, k->fn);
  while (open < close && src->text[open] != '(')
    open++;
  if (close >= src->len || close <= open)
    return NULL;
  char *params = arena_strndup(src->text + open + 1, close - open - 1);
  for (const char *p = params; *p; p++)
    if (*p == '=' || *p == '#' || *p == '\\' || (*p == '/' && (p[1] == '/' || p[1] == '*')))
      return NULL;
  bool none = fn_params_empty(src, k->fn, close);
  return arena_printf("static_cast<void (*)(%s%s%s)>(%s)", grid_params_text(k, false), none ? "" : ", ",
                      none ? "" : params, callee);
}

/* Whether the kernel's declaration says `__launch_bounds__`: ptxas then
 * fits its registers to the threads it names. */
static bool has_launch_bounds(const Source *src, const Kernel *k) {
  for (unsigned p = k->fn->begin; p + 17 <= k->fn->loc; p++)
    if (!strncmp(src->text + p, "__launch_bounds__", 17))
      return true;
  return false;
}

/* Whether the block extent `text` may be evaluated twice (once by the
 * prelude's check before the launch): names, numbers, operators that
 * write nothing, and `dim3(...)`; no other call, no `=`, `++` or `--`, no
 * comment. */
static bool block_text_pure(const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '=' || ((*p == '+' || *p == '-' || *p == '/') && p[1] == *p) || (*p == '/' && p[1] == '*'))
      return false;
    if (!ident_char(*p) && !strchr(" \t\n.*/+-%(),?:<>&|^~![]", *p))
      return false;
    if (*p == '(') {
      const char *w = p;
      while (w > text && (w[-1] == ' ' || w[-1] == '\t'))
        w--;
      const char *s = w;
      while (s > text && ident_char(s[-1]))
        s--;
      if ((w > s && !(w - s == 4 && !strncmp(s, "dim3", 4))) || (w > text && w[-1] == '>'))
        return false; /* a call (`f(n)`, `f<T>(n)`) */
    }
  }
  return true;
}

/* Block mode, before the launch: the prelude's checks that the merged block
 * fits the device (block_fits: its threads, now K logical blocks' work
 * each) and, for a template kernel whose launch deduces its arguments and
 * so cannot opt in above 48 KB, that its K shares of dynamic shared
 * memory fit without (dyn_shared_unnamed).  No thread check where it
 * cannot fail (a block clang evaluates to 256 threads or fewer: 255
 * registers each still fit; a kernel with __launch_bounds__: ptxas fits
 * it, as bound_block_threads below makes it for constant blocks), nor
 * where the launch does not name the kernel (addr, kernel_address's, is
 * NULL) or the block extent has effects. */
static bool threads_may_not_fit(const Unit *u, Node *call, Kernel *k, const char *block, const char *addr) {
  long threads = call->nkid > 1 ? call->kid[1]->block_threads : 0;
  bool fits = (threads > 0 && threads <= 256) || has_launch_bounds(u->src, k);
  return addr && !fits && block_text_pure(block);
}

static void block_launch_checks(const Unit *u, Node *call, Kernel *k, Span *parts, const char *addr,
                                const char *site, Buf *b) {
  char *block = span_text(u->src, parts[1]);
  if (threads_may_not_fit(u, call, k, block, addr))
    buf_printf(b, "::tfuse_rt::block_fits(%s, %s, %du, \"%s\", \"%s\"); ", addr, block, k->p.factor,
               k->sym->name, site);
  if (k->dyn_shared && !addr)
    buf_printf(b, "::tfuse_rt::dyn_shared_unnamed(%du * (size_t)__tf_dsmem, %du, \"%s\", \"%s\"); ", k->p.factor,
               k->p.factor, k->sym->name, site);
}

static bool only_read_by_launches(Node *n, Sym *var);

/* Whether the block of a launch has extents clang evaluates and that hold
 * when the launch runs (a dim3 variable nothing else writes): dims. */
static bool constant_block(Node *call, long dims[3]) {
  Node *cfg = call->nkid > 1 ? call->kid[1] : NULL;
  if (!cfg || cfg->block_threads <= 0)
    return false;
  if (cfg->block_var) {
    Node *f = call;
    while (f && f->kind != N_FUNC)
      f = f->parent;
    if (!f || !only_read_by_launches(f, cfg->block_var))
      return false;
  }
  memcpy(dims, cfg->block_dim, sizeof cfg->block_dim);
  return true;
}

/* Thread mode: why the coarsened kernel can never serve this launch (a
 * constant block extent K does not divide, or that leaves part of a warp
 * to the kernel's warp-synchronous code), or NULL. */
static char *never_served(Node *call, const Kernel *k) {
  long dims[3];
  if (k->p.mode != MODE_THREAD || !constant_block(call, dims))
    return NULL;
  int ds[3], f[3], n = launch_dims(k, ds, f);
  for (int i = 0; i < n; i++) {
    long e = dims[ds[i]];
    if (e % f[i] != 0)
      return arena_printf("blockDim.%c = %ld, which the factor %d does not divide", "xyz"[ds[i]], e, f[i]);
    if (k->whole_warps && e / f[i] % 32 != 0)
      return arena_printf("blockDim.%c = %ld, whose 1/%d is not whole warps, which the kernel's warp-synchronous "
                          "code needs", "xyz"[ds[i]], e, f[i]);
  }
  return NULL;
}

/* Thread mode: the run-time condition under which the coarsened kernel
 * serves a launch whose block is the local `block` (DESIGN-NOTES,
 * "Dispatch"): K divides each coarsened extent, and leaves whole warps
 * where the kernel keeps warp-synchronous code.  NULL where every launch
 * this site makes is served (constant extents that divide). */
static char *thread_serve_condition_of(const Kernel *k, const char *block);

static char *thread_serve_condition(Node *call, const Kernel *k, const char *block) {
  long dims[3];
  if (constant_block(call, dims) && !never_served(call, k))
    return NULL;
  return thread_serve_condition_of(k, block);
}

/* ... the condition itself, on the dim3 `block`. */
static char *thread_serve_condition_of(const Kernel *k, const char *block) {
  int ds[3], f[3], n = launch_dims(k, ds, f);
  Buf b = {0};
  for (int i = 0; i < n; i++)
    buf_printf(&b, "%s::tfuse_rt::serves_block(%s, %d, %du, %s, __tf_fb)", i ? " && " : "", block, ds[i], f[i],
               k->whole_warps ? "true" : "false");
  char *t = arena_strdup(b.data);
  buf_free(&b);
  return t;
}

/* Block mode: the run-time condition under which the merged block fits
 * the device (what block_launch_checks would stop for): its threads'
 * registers (serves_threads) and K dynamic shares (serves_shared, with
 * the kernel's address; serves_shared_unnamed, without).  NULL where
 * nothing needs checking. */
static char *fit_condition(const Kernel *k, const char *addr, const char *block, bool threads, bool shares);

static char *block_serve_condition(const Unit *u, Node *call, Kernel *k, Span *parts, const char *addr) {
  char *block = span_text(u->src, parts[1]);
  /* K shares of a constant size within 48 KB need no check (nor an
   * opt-in). */
  long bytes = call->nkid > 1 ? call->kid[1]->dyn_bytes : 0;
  bool small = bytes > 0 && (bytes + 15) / 16 * 16 * k->p.factor <= 48 * 1024;
  return fit_condition(k, addr, block, threads_may_not_fit(u, call, k, block, addr), k->dyn_shared && !small);
}

/* The test of block_serve_condition: the merged block's threads'
 * registers (threads: serves_threads, through the kernel's address addr)
 * and K shares of `__tf_dsmem` (shares: serves_shared, or
 * serves_shared_unnamed where addr is NULL); NULL where neither. */
static char *fit_condition(const Kernel *k, const char *addr, const char *block, bool threads, bool shares) {
  Buf b = {0};
  if (threads)
    buf_printf(&b, "::tfuse_rt::serves_threads(%s, %s, __tf_fb)", addr, block);
  if (shares && addr)
    buf_printf(&b, "%s::tfuse_rt::serves_shared(%s, %du * (size_t)__tf_dsmem, __tf_fb)", b.len ? " && " : "", addr,
               k->p.factor);
  else if (shares)
    buf_printf(&b, "%s::tfuse_rt::serves_shared_unnamed(%du * (size_t)__tf_dsmem, __tf_fb)", b.len ? " && " : "",
               k->p.factor);
  char *t = b.len ? arena_strdup(b.data) : NULL;
  buf_free(&b);
  return t;
}

/* The site's Fallback record, declared before the dispatch. */
static void fallback_record(Buf *b, const Kernel *k, const char *site) {
  buf_printf(b, "static ::tfuse_rt::Fallback __tf_fb(\"%s\", \"%s\"); ", k->sym->name, site);
}

/* Block mode: the declarations and the launch itself, with the grid (and
 * the dynamic shared size) evaluated once:
 *   const dim3 __tf_grid = (G); [const unsigned int __tf_dsmem = ...;]
 *   k<<<coarsen_grid(__tf_grid, d, K), B[, K * __tf_dsmem][, S]>>>(grid_extent(__tf_grid, d)[, __tf_dsmem], args)
 * A kernel whose extern __shared__ array is replicated takes each logical
 * block's share, the launch's size rounded up to 16 bytes, and the launch
 * asks for K shares (opting in above 48 KB where the kernel can be named).
 * Where the merged block may not fit the device (block_serve_condition)
 * and `fallback` names the original at this launch, the launch becomes a
 * dispatch that runs the original on the original grid where it does not:
 *   static Fallback __tf_fb = {...}; [const size_t __tf_smem = (S);
 *   const unsigned int __tf_dsmem = dyn_share(__tf_smem);]
 *   if (COND) { [opt-in;] k<<<...>>>(...); } else ORIGINAL<<<__tf_grid, B[, S][, ST]>>>(args)
 * (without `fallback`, the prelude's checks stop the program instead). */
static void add_block_launch(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned cb, unsigned ce,
                             const char *before_launch, const char *callee_as, const char *fallback, Buf *b) {
  const Source *src = u->src;
  const char *t = src->text;
  unsigned lp = args_open(src, call, ce);
  unsigned rp = text_match(src, lp, call->end) - 1;
  bool no_args = source_skip_space(src, lp + 1) >= rp;
  buf_printf(b, "const dim3 __tf_grid = (%s); ", span_text(src, parts[0]));
  const char *callee = callee_as ? callee_as : span_text(src, (Span){call->begin, cb - 3});
  char *addr = kernel_address(u, k, call, callee);
  char *site = launch_site(src, call->begin);
  char *cond = fallback ? block_serve_condition(u, call, k, parts, addr) : NULL;
  if (cond) {
    fallback_record(b, k, site);
    if (k->dyn_shared)
      buf_printf(b, "const size_t __tf_smem = (%s); const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); ",
                 np >= 3 ? span_text(src, parts[2]) : "0");
    buf_printf(b, "if (%s) { ", cond);
    if (k->dyn_shared && addr)
      buf_printf(b, "::tfuse_rt::dyn_shared_opt_in(%s, %du * (size_t)__tf_dsmem); ", addr, k->p.factor);
    k->dispatches++;
  } else {
    if (k->dyn_shared) {
      buf_printf(b, "const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(%s); ",
                 np >= 3 ? span_text(src, parts[2]) : "0");
      if (addr)
        buf_printf(b, "::tfuse_rt::dyn_shared_opt_in(%s, %du * (size_t)__tf_dsmem); ", addr, k->p.factor);
    }
    block_launch_checks(u, call, k, parts, addr, site, b);
  }
  buf_puts(b, before_launch);
  if (callee_as)
    buf_printf(b, "%s<<<", callee_as);
  else
    buf_add(b, t + call->begin, cb - call->begin);
  if (!k->dyn_shared) {
    /* Block, size and stream as written, line breaks kept. */
    buf_printf(b, "%s,", coarsened_grid(k, "__tf_grid"));
    buf_add(b, t + parts[1].b, lp + 1 - parts[1].b);
  } else {
    buf_printf(b, "%s, %s, %du * (size_t)__tf_dsmem", coarsened_grid(k, "__tf_grid"), span_text(src, parts[1]),
               k->p.factor);
    if (np >= 4)
      buf_printf(b, ", %s", span_text(src, parts[3]));
    buf_puts(b, ">>>(");
  }
  buf_printf(b, "%s%s%s", grid_extents(k, "__tf_grid"), k->dyn_shared ? ", __tf_dsmem" : "", no_args ? "" : ", ");
  buf_add(b, t + lp + 1, call->end - lp - 1);
  if (!cond)
    return;
  buf_printf(b, "; } else %s%s<<<__tf_grid, %s", before_launch, fallback, span_text(src, parts[1]));
  if (np >= 3)
    buf_printf(b, ", %s", k->dyn_shared ? "__tf_smem" : span_text(src, parts[2]));
  if (np >= 4)
    buf_printf(b, ", %s", span_text(src, parts[3]));
  buf_puts(b, ">>>");
  buf_add(b, t + lp, call->end - lp);
}

/* The kept original's callee at this launch (`k<T>` -> `k__tf_orig<T>`),
 * which a dispatch runs where the coarsened kernel cannot serve the
 * launch; NULL where the original cannot be named there (a qualifier
 * other than the kernel's own namespaces). */
static char *fallback_callee(const Source *src, const Kernel *k, const Node *call, unsigned cb) {
  char *callee = span_text(src, (Span){call->begin, cb - 3});
  if (!callee_in_own_scope(k, callee))
    return NULL;
  return callee_renamed(callee, k->sym->name, original_name(k));
}

/* Thread mode, where a launch's block may not be served
 * (thread_serve_condition): a dispatch on the block, evaluated once,
 * between the coarsened kernel and the original:
 *   { static Fallback __tf_fb = {...}; const dim3 __tf_block = (B);
 *     if (serves_block(__tf_block, d, K, warps, __tf_fb))
 *       k<<<G, coarsen_block(__tf_block, d, K, ...)[, S[, ST]]>>>(args);
 *     else
 *       ORIGINAL<<<G, __tf_block[, S[, ST]]>>>(args); }
 * `before` goes before each launch ("return " in a lambda); `callee` is
 * the coarsened kernel's callee text. */
static void add_thread_dispatch(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned ce, const char *cond,
                                const char *callee, const char *fallback, const char *before, Buf *b) {
  const Source *src = u->src;
  const char *t = src->text;
  unsigned lp = args_open(src, call, ce);
  char *site = launch_site(src, call->begin);
  char *ind = source_indent(src, call->begin);
  Buf rest = {0};
  for (int p = 2; p < np; p++)
    buf_printf(&rest, ", %s", span_text(src, parts[p]));
  char *args = arena_strndup(t + lp, call->end - lp);
  char *grid = span_text(src, parts[0]);
  fallback_record(b, k, site);
  buf_printf(b, "const dim3 __tf_block = (%s);\n", span_text(src, parts[1]));
  buf_printf(b, "%s  if (%s)\n", ind, cond);
  buf_printf(b, "%s    %s%s<<<%s, %s%s>>>%s;\n", ind, before, callee, grid, coarsened_block(k, "__tf_block", site),
             rest.data ? rest.data : "", args);
  buf_printf(b, "%s  else\n%s    %s%s<<<%s, __tf_block%s>>>%s;\n%s", ind, ind, before, fallback, grid,
             rest.data ? rest.data : "", args, ind);
  buf_free(&rest);
  k->dispatches++;
}

/* Block mode, a launch that is not a statement of its own (in an
 * expression, or a macro's argument): the grid is evaluated once inside a
 * lambda called on the spot, which is an expression wherever the launch
 * was: `[&] { const dim3 __tf_grid = (G); return k<<<...>>>(...); }()`. */
static bool rewrite_expression(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned cb, unsigned ce,
                               EditList *el) {
  Buf b = {0};
  buf_puts(&b, "[&] { ");
  char *fallback = fallback_callee(u->src, k, call, cb);
  char *cond = k->p.mode == MODE_THREAD && fallback ? thread_serve_condition(call, k, "__tf_block") : NULL;
  if (cond) {
    add_thread_dispatch(u, call, k, parts, np, ce, cond, span_text(u->src, (Span){call->begin, cb - 3}), fallback,
                        "return ", &b);
    buf_puts(&b, "}()");
  } else {
    add_block_launch(u, call, k, parts, np, cb, ce, "return ", NULL, fallback, &b);
    buf_puts(&b, "; }()");
  }
  edit_replace(el, call->begin, call->end - call->begin, b.data);
  buf_free(&b);
  return true;
}

/* Finds `<<<` and `>>>` in the text of the call (*cb just past the one,
 * *ce at the other) and splits the configuration; returns the number of
 * its parts, or 0 after an error. */
static int launch_parts(Unit *u, Node *call, Kernel *k, unsigned *cbp, unsigned *cep, Span *parts) {
  const char *t = u->src->text;
  Node *cfg = call->kid[1];
  const char *open = strstr(t + call->begin, "<<<");
  if (!open || (unsigned)(open - t) >= call->end) {
    error_at(call->begin, "cannot find '<<<' in this launch of '%s'", k->sym->name);
    return 0;
  }
  unsigned cb = (unsigned)(open - t) + 3;
  unsigned ce = cfg->end >= 3 ? cfg->end - 3 : cb;
  if (strncmp(t + ce, ">>>", 3) != 0) {
    const char *close = strstr(t + cb, ">>>");
    if (!close) {
      error_at(call->begin, "cannot find '>>>' in this launch of '%s'", k->sym->name);
      return 0;
    }
    ce = (unsigned)(close - t);
  }
  int first = call_first_arg(cfg);
  int np = split_config(u->src, cb, ce, cfg->kid + first, cfg->nkid - first, parts, 4);
  if (np < 2) {
    error_at(call->begin, "launch of '%s' needs a grid and a block%s", k->sym->name, "");
    return 0;
  }
  *cbp = cb;
  *cep = ce;
  return np;
}

/* The arguments' text of a launch whose `>>>` is at ce; their number. */
static int launch_arg_texts(Unit *u, Node *call, unsigned ce, Span *out, int max) {
  const Source *src = u->src;
  unsigned lp = args_open(src, call, ce);
  if (lp >= call->end || source_skip_space(src, lp + 1) >= call->end - 1)
    return 0;
  return split_config(src, lp + 1, call->end - 1, call->nkid > 2 ? call->kid + 2 : NULL,
                      call->nkid > 2 ? call->nkid - 2 : 0, out, max);
}

static bool rewrite_one(Unit *u, Node *call, Kernel *k, bool check, EditList *el) {
  const Source *src = u->src;
  if (!locate_launch_text(u, call, k)) {
    error_at(call->begin, "launch of '%s' inside a macro's body cannot be rewritten; expand it by hand",
             k->sym->name);
    return false;
  }
  unsigned cb, ce;
  Span parts[4];
  int np = launch_parts(u, call, k, &cb, &ce, parts);
  if (!np)
    return false;
  char *site = launch_site(src, call->begin);
  if (check && call->launch_in_macro_arg) {
    error_at(call->begin, "-check cannot route a launch of '%s' written in a macro's argument; expand the macro "
                          "by hand", k->sym->name);
    return false;
  }
  if (check && k->dyn_shared) {
    error_at(call->begin, "-check cannot yet route a launch of '%s', whose dynamic shared memory is divided "
                          "among the logical blocks", k->sym->name);
    return false;
  }
  /* K shares of a constant size: no GPU gives a block more than 227 KB
   * (232,448 bytes: sm_90 and sm_100 with opt-in), so such a launch could
   * never run. */
  Node *cfg = call->kid[1];
  long share = (cfg->dyn_bytes + 15) / 16 * 16;
  if (k->p.mode == MODE_BLOCK && k->dyn_shared && cfg->dyn_bytes > 0 && share * k->p.factor > 232448) {
    error_at(call->begin, "launch of '%s' asks for %ld bytes of dynamic shared memory per block; block mode gives "
                          "each of its %d logical blocks a share, %ld bytes in all, over the 227 KB (232,448 "
                          "bytes) the largest GPUs give a block; use a smaller -factor", k->sym->name,
             cfg->dyn_bytes, k->p.factor, share * k->p.factor);
    return false;
  }
  if (check)
    return rewrite_checked(u, call, k, parts, np, cb - 3, el, site); /* cb - 3: at `<<<` */
  /* Thread mode, a block K divides (constant): the block extent rescaled
   * in place.  Else a dispatch between the coarsened kernel and the
   * original, on the block. */
  char *fallback = fallback_callee(src, k, call, cb);
  char *cond = k->p.mode == MODE_THREAD && fallback ? thread_serve_condition(call, k, "__tf_block") : NULL;
  if (k->p.mode == MODE_THREAD && !cond) {
    char *block = span_text(src, parts[1]);
    edit_replace(el, parts[1].b, parts[1].e - parts[1].b, arena_printf(" %s", coarsened_block(k, block, site)));
    return true;
  }

  /* Block mode: the grid is used twice (new grid, original extent), so it
   * is evaluated once into a local of a new block around the launch. */
  if (call->launch_in_macro_arg || !in_statement_position(call))
    return rewrite_expression(u, call, k, parts, np, cb, ce, el);
  unsigned end = launch_statement_end(u, call, k);
  if (!end)
    return false;
  Buf b = {0};
  buf_puts(&b, "{ ");
  if (cond) {
    add_thread_dispatch(u, call, k, parts, np, ce, cond, span_text(src, (Span){call->begin, cb - 3}), fallback, "",
                        &b);
    buf_puts(&b, "}");
  } else {
    add_block_launch(u, call, k, parts, np, cb, ce, "", NULL, fallback, &b);
    buf_puts(&b, "; }");
  }
  edit_replace(el, call->begin, end - call->begin, b.data);
  buf_free(&b);
  return true;
}

/* A use of a kernel's name whose value is stored into a variable or
 * compared with one, through `&`, parentheses, casts and the arms of `?:`:
 * `p = &k;`, `void (*p)(float *) = c ? k : j;`, `p == &k`, a graph node's
 * `params.func = (void *)k`.  The stored value becomes the kept original's
 * address, so whatever launches through it (a graph's kernel node, a
 * cudaLaunchKernel of the pointer) runs the original on the configuration
 * it is given: correct by construction.  An argument (cudaFuncSetAttribute,
 * cudaLaunchKernel: kernel_apis) is none of these. */
static bool is_address_use(const Node *n) {
  const Node *c = n, *p = n->parent;
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN || p->kind == N_CAST ||
               (p->kind == N_UNOP && p->op == OP_ADDR) || (p->kind == N_COND && p->nkid == 3 && c != p->kid[0]))) {
    c = p;
    p = p->parent;
  }
  if (!p)
    return false;
  if (p->kind == N_ASSIGN && p->op == OP_ASSIGN && p->nkid == 2 && c == p->kid[1])
    return true;
  if (p->kind == N_VAR && p->has_var_init && p->nkid > 0 && c == p->kid[p->nkid - 1])
    return true;
  if (p->kind == N_INIT_LIST)
    return true; /* an element of a table of kernel pointers (`KernelFn t[] = {inc, dbl};`) */
  return p->kind == N_BINOP && (p->op == OP_EQ || p->op == OP_NE);
}

/* ---- the runtime's functions that take a kernel ----
 *
 * (K: the factor, the product of the factors with several dimensions.)
 * A query answers for the kernel it is given, and the program picks its
 * launches from the answers (a block size from
 * cudaOccupancyMaxPotentialBlockSize, a grid from the blocks per
 * multiprocessor): the answers must be those the original kernel gives.
 * So a query names the original, kept in the output as `k__tf_orig`
 * (-factor auto: its original variant, `k__tf_k1`), and answers as without
 * tfuse; the launch it picks is rewritten as any other (and fails with the
 * runtime's error, or a check of the prelude's, where the coarsened kernel
 * cannot run it):
 * - cudaFuncGetAttributes, cudaFuncGetParamInfo, and the occupancy
 *   calculators (cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags],
 *   cudaOccupancyMaxPotentialBlockSize[VariableSMem][WithFlags],
 *   cudaOccupancyAvailableDynamicSMemPerBlock,
 *   cudaOccupancyMaxPotentialClusterSize, cudaOccupancyMaxActiveClusters),
 *   C and template forms alike:
 *     cudaOccupancyMaxPotentialBlockSize(&g, &b, k__tf_orig, 0, 0)
 * - cudaFuncGetName: thread mode as written (the coarsened kernel keeps the
 *   original's name and parameters); block mode refused (the coarsened
 *   kernel takes the grid extents first, and the kept original is renamed,
 *   so neither has the original's mangled name).
 * A setter must reach the kernel that runs and the original the queries
 * read (and -check launches):
 * - cudaFuncSetCacheConfig, cudaFuncSetSharedMemConfig, cudaFuncSetAttribute:
 *     [&]() -> cudaError_t { const auto __tf_v = (v);
 *       cudaError_t __tf_e = cudaFuncSetAttribute(k__tf_orig, a, __tf_v);
 *       if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k, a, __tf_v);
 *       return __tf_e; }()
 *   the original's error first, as without tfuse.  Block mode with a
 *   divided dynamic shared size asks for K shares at a launch, so the
 *   coarsened kernel's MaxDynamicSharedMemorySize is
 *   `::tfuse_rt::dyn_shared_limit(k, Ku * ::tfuse_rt::dyn_share(__tf_v))`,
 *   which stops the program with the reason where K shares pass what the
 *   device allows (the launch would fail); a cluster's extent
 *   (RequiredClusterWidth, Height, Depth) along a coarsened dimension is
 *   divided as __cluster_dims__ is (::tfuse_rt::coarsen_cluster: c / K
 *   where K divides c, else 1); an attribute tfuse cannot read, in block
 *   mode: refused.  -factor auto: each variant its own
 *   (every_variant), the dynamic size clamped to what the device allows
 *   the variant.
 * Launches:
 * - cudaLaunchKernel, cudaLaunchCooperativeKernel(f, g, b, args, s, st): as a
 *   `<<<>>>` launch: thread mode divides b (coarsen_block), block mode
 *   rescales g and passes the original extents (and the share) first, in a
 *   new argument array:
 *     [&]() -> cudaError_t { const dim3 __tf_grid = (g); void **__tf_args = (args);
 *       unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0);
 *       void *__tf_argv[3]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = __tf_args[0]; ...
 *       return cudaLaunchKernel(f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), b, __tf_argv, s, st); }()
 * - cudaLaunchKernelEx(&cfg, k, args...): a copy of the configuration,
 *   rescaled as above, and the extents before the arguments; block mode
 *   copies its attributes too, a cluster dimension divided as
 *   __cluster_dims__ is (::tfuse_rt::coarsen_cluster_attrs).
 * Any other function given the kernel (cudaGetFuncBySymbol, whose handle
 * launches it) is refused at the name, naming the function.
 * Statements are separated by `;` and every comma is inside parentheses,
 * so the text stays one argument of a macro it is written in. */
typedef enum {
  API_SETTER,
  API_SET_ATTRIBUTE,
  API_QUERY,
  API_NAME,
  API_LAUNCH,
  API_LAUNCH_EX,
} ApiKind;

typedef struct {
  const char *name;
  int kernel_arg; /* the kernel's position among the arguments */
  ApiKind kind;
} KernelApi;

static const KernelApi kernel_apis[] = {
#define A(name, kernel_arg, kind) {name, kernel_arg, API_##kind},
#include "host_apis.def"
#undef A
};

enum { API_MAX_ARGS = 16 };

/* A call of one of kernel_apis with a kernel's name as its kernel argument. */
typedef struct {
  const KernelApi *api; /* NULL: the use is no such argument */
  unsigned b, e;        /* the call's own text, its name through `)`; e == 0: not in the file (a macro's body) */
  Span args[API_MAX_ARGS]; /* the arguments' text, trimmed */
  int nargs;
} ApiCall;

/* Where a use of k's name is spelled (for a caret): inside a macro's
 * argument the node's extent is the whole invocation, and a name in a
 * macro's body is at the innermost use of a macro whose body names it. */
static unsigned use_at(const Unit *u, const Node *n, const Kernel *k) {
  size_t nl = strlen(k->sym->name);
  if (n->loc + nl <= u->src->len && !strncmp(u->src->text + n->loc, k->sym->name, nl))
    return n->loc;
  unsigned at = n->begin;
  for (int i = 0; i < u->macro_uses.len; i++) {
    const MacroUse *mu = u->macro_uses.items[i];
    if (mu->begin < at || mu->begin >= n->end)
      continue;
    for (int b = 0; b < mu->macro->nbody; b++)
      if (!strcmp(mu->macro->body[b], k->sym->name))
        at = mu->begin;
  }
  return at;
}

static Span trimmed(const Source *src, Span s) {
  while (s.b < s.e && isspace((unsigned char)src->text[s.b]))
    s.b++;
  while (s.e > s.b && isspace((unsigned char)src->text[s.e - 1]))
    s.e--;
  return s;
}

/* The call of kernel_apis whose kernel argument n is (through parentheses,
 * casts and `&`), and its text. */
static ApiCall api_call_of(const Unit *u, Node *n, const Kernel *k) {
  ApiCall c = {0};
  Node *a = n, *p = n->parent;
  /* In a host template, `k<T>` is a dependent reference around the name. */
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN || p->kind == N_CAST ||
               (p->kind == N_UNOP && p->op == OP_ADDR) || (p->kind == N_DECL_REF && n->kind == N_OTHER))) {
    a = p;
    p = p->parent;
  }
  if (!p || p->kind != N_CALL || p->is_launch)
    return c;
  const char *name = p->spelling ? p->spelling : p->sym ? p->sym->name : NULL;
  for (size_t i = 0; name && i < sizeof kernel_apis / sizeof *kernel_apis && !c.api; i++)
    if (!strcmp(name, kernel_apis[i].name) && call_first_arg(p) + kernel_apis[i].kernel_arg < p->nkid &&
        p->kid[call_first_arg(p) + kernel_apis[i].kernel_arg] == a)
      c.api = &kernel_apis[i];
  if (!c.api)
    return c;
  /* The text: the callee's name where the call's location is spelled
   * (in a macro's argument too), its `(`, the matching `)`. */
  const Source *src = u->src;
  const char *t = src->text;
  size_t nl = strlen(name);
  unsigned b = p->loc;
  if (p->in_macro || b + nl > src->len || strncmp(t + b, name, nl) || ident_char(t[b + nl]))
    return c;
  unsigned lp = source_skip_space(src, b + (unsigned)nl);
  if (lp >= src->len || t[lp] != '(')
    return c;
  unsigned e = text_match(src, lp, (unsigned)src->len);
  if (e <= lp + 1 || t[e - 1] != ')')
    return c;
  Span parts[API_MAX_ARGS];
  int first = call_first_arg(p);
  c.nargs = split_config(src, lp + 1, e - 1, p->kid + first, p->nkid - first, parts, API_MAX_ARGS);
  for (int i = 0; i < c.nargs; i++)
    c.args[i] = trimmed(src, parts[i]);
  /* The kernel's name must lie in the kernel argument's text. */
  unsigned at = use_at(u, n, k);
  if (c.api->kernel_arg >= c.nargs || at < c.args[c.api->kernel_arg].b || at >= c.args[c.api->kernel_arg].e)
    return c;
  c.b = b;
  c.e = e;
  return c;
}

static char *arg_text(const Unit *u, const ApiCall *c, int i, const char *absent) {
  return i < c->nargs ? arena_strndup(u->src->text + c->args[i].b, c->args[i].e - c->args[i].b) : (char *)absent;
}

/* The arguments from..nargs as written, each after ", ". */
static char *args_from(const Unit *u, const ApiCall *c, int from) {
  Buf b = {0};
  for (int i = from; i < c->nargs; i++)
    buf_printf(&b, ", %s", arg_text(u, c, i, ""));
  char *t = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  return t;
}

/* The dynamic shared size a launch of k passes for `bytes` of one logical
 * block: K shares where block mode divides it among the logical blocks. */
static char *scaled_dyn_shared(const Kernel *k, const char *bytes) {
  return k->dyn_shared ? arena_printf("%du * (size_t)::tfuse_rt::dyn_share(%s)", k->p.factor, bytes)
                       : (char *)bytes;
}

/* Block mode: the extents as locals (`unsigned int __tf_ext0 = ...;`), for
 * an argument array or the arguments of cudaLaunchKernelEx. */
static void extent_locals(const Kernel *k, Buf *b, Buf *names) {
  int dims[3], f[3], n = launch_dims(k, dims, f);
  for (int i = 0; i < n; i++) {
    buf_printf(b, "unsigned int __tf_ext%d = ::tfuse_rt::grid_extent(__tf_grid, %d); ", i, dims[i]);
    buf_printf(names, "%s__tf_ext%d", i ? ", " : "", i);
  }
}

static char *arg_renamed(const Unit *u, const ApiCall *c, const Kernel *k, unsigned at, const char *to);

/* The share of a kernel whose dynamic shared memory is divided, from
 * `bytes` (NULL: __tf_dsmem is declared already), and the opt-in above
 * 48 KB (as add_block_launch). */
static void dyn_share_locals(const Kernel *k, const char *bytes, const char *kernel, Buf *b) {
  if (bytes) /* else declared already */
    buf_printf(b, "unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(%s); ", bytes);
  buf_printf(b, "::tfuse_rt::dyn_shared_opt_in(%s, %du * (size_t)__tf_dsmem); ", kernel, k->p.factor);
}

static void replace_span(EditList *el, Span s, const char *text) { edit_replace(el, s.b, s.e - s.b, text); }

/* The call replaced by a lambda called on the spot, around `body`. */
static void replace_call(EditList *el, const ApiCall *c, const char *body) {
  edit_replace(el, c->b, c->e - c->b, arena_printf("[&]() -> cudaError_t { %s}()", body));
}

/* Block mode, an API launch: the condition under which the merged block
 * fits the device, for `kernel`, an expression of the coarsened kernel's
 * address (a block of run-time size, checked unless launch bounds hold
 * it). */
static char *api_block_serve_condition(const Unit *u, const Kernel *k, const char *kernel, const char *block) {
  return fit_condition(k, kernel, block, !has_launch_bounds(u->src, k), k->dyn_shared);
}

/* Block mode: cudaLaunchKernel / cudaLaunchCooperativeKernel, through a
 * new argument array with the original extents (and the share) first.
 * Where the original can be named at the call, the launch runs it, as
 * written, when the merged block does not fit the device:
 *   [&]() -> cudaError_t { static Fallback __tf_fb = {...}; const dim3 __tf_grid = (g);
 *     const dim3 __tf_block = (b); void **__tf_args = (a); const void *__tf_f = (f);
 *     [const size_t __tf_smem = (S); unsigned int __tf_dsmem = dyn_share(__tf_smem);]
 *     if (!(serves_threads(__tf_f, __tf_block, __tf_fb) [&& serves_shared(...)]))
 *       return cudaLaunchKernel(ORIGINAL, __tf_grid, __tf_block, __tf_args, S, st);
 *     ... return cudaLaunchKernel(__tf_f, coarsen_grid(...), __tf_block, __tf_argv, K * __tf_dsmem, st); }()
 * Without the original, the prelude's checks stop the program instead. */
static bool launch_api_block(Unit *u, const ApiCall *c, Kernel *k, unsigned at, const char *site, EditList *el) {
  Node *params[64];
  int npar = kernel_params(k, params, 64);
  /* A parameter pack (`T... rest`) has as many arguments as an instantiation. */
  bool pack = false;
  for (unsigned i = npar > 0 ? params[npar - 1]->begin : 0; npar > 0 && i + 3 <= params[npar - 1]->end && !pack; i++)
    pack = !strncmp(u->src->text + i, "...", 3);
  if (npar >= 64 || pack) {
    error_at(at, "tfuse cannot count the arguments of '%s' (a parameter pack) to pass the grid extent first in this "
                 "%s; tfuse refuses to coarsen the kernel", k->sym->name, c->api->name);
    return false;
  }
  char *orig = arg_renamed(u, c, k, at, original_name(k));
  char *cond = orig ? api_block_serve_condition(u, k, "__tf_f", "__tf_block") : NULL;
  Buf b = {0}, ext = {0};
  if (cond)
    fallback_record(&b, k, site);
  buf_printf(&b, "const dim3 __tf_grid = (%s); ", arg_text(u, c, 1, ""));
  const char *block = arg_text(u, c, 2, "");
  if (cond) {
    buf_printf(&b, "const dim3 __tf_block = (%s); ", block);
    block = "__tf_block";
  }
  buf_printf(&b, "void **__tf_args = (%s); const void *__tf_f = (const void *)(%s); ", arg_text(u, c, 3, ""),
             arg_text(u, c, 0, ""));
  if (cond) {
    const char *smem = arg_text(u, c, 4, "0");
    if (k->dyn_shared) {
      buf_printf(&b, "const size_t __tf_smem = (%s); unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); ",
                 smem);
      smem = "__tf_smem";
    }
    buf_printf(&b, "if (!(%s)) return %s((const void *)(%s), __tf_grid, __tf_block, __tf_args, %s, %s); ", cond,
               c->api->name, orig, smem, arg_text(u, c, 5, "0"));
    k->dispatches++;
  }
  extent_locals(k, &b, &ext);
  if (k->dyn_shared)
    dyn_share_locals(k, cond ? NULL : arg_text(u, c, 4, "0"), "__tf_f", &b);
  int dims[3], f[3], n = launch_dims(k, dims, f), extra = n + (k->dyn_shared ? 1 : 0);
  buf_printf(&b, "void *__tf_argv[%d]; ", npar + extra);
  for (int i = 0; i < n; i++)
    buf_printf(&b, "__tf_argv[%d] = &__tf_ext%d; ", i, i);
  if (k->dyn_shared)
    buf_printf(&b, "__tf_argv[%d] = &__tf_dsmem; ", n);
  for (int i = 0; i < npar; i++)
    buf_printf(&b, "__tf_argv[%d] = __tf_args[%d]; ", extra + i, i);
  char *smem = k->dyn_shared ? arena_printf("%du * (size_t)__tf_dsmem", k->p.factor) : arg_text(u, c, 4, "0");
  buf_printf(&b, "return %s(__tf_f, %s, %s, __tf_argv, %s, %s); ", c->api->name, coarsened_grid(k, "__tf_grid"),
             block, smem, arg_text(u, c, 5, "0"));
  replace_call(el, c, b.data);
  buf_free(&b);
  buf_free(&ext);
  return true;
}

/* cudaLaunchKernelEx(&cfg, k, args...): a copy of the configuration.  In
 * block mode, where the original can be named at the call, the launch
 * runs it with the configuration as written when the merged block does
 * not fit the device (as launch_api_block). */
static void launch_ex(Unit *u, const ApiCall *c, Kernel *k, unsigned at, const char *site, EditList *el) {
  Buf b = {0}, ext = {0};
  char *kernel = arg_text(u, c, 1, "");
  char *orig = k->p.mode == MODE_BLOCK ? arg_renamed(u, c, k, at, original_name(k)) : NULL;
  char *cond = orig ? api_block_serve_condition(u, k, kernel, "__tf_cfg.blockDim") : NULL;
  if (cond)
    fallback_record(&b, k, site);
  buf_printf(&b, "cudaLaunchConfig_t __tf_cfg = *(%s); ", arg_text(u, c, 0, ""));
  if (k->p.mode == MODE_THREAD) {
    buf_printf(&b, "__tf_cfg.blockDim = %s; ", coarsened_block(k, "__tf_cfg.blockDim", site));
  } else {
    if (cond) {
      if (k->dyn_shared)
        buf_puts(&b, "unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_cfg.dynamicSmemBytes); ");
      buf_printf(&b, "if (!(%s)) return cudaLaunchKernelEx(&__tf_cfg, %s%s); ", cond, orig, args_from(u, c, 2));
      k->dispatches++;
    }
    buf_printf(&b, "const dim3 __tf_grid = __tf_cfg.gridDim; __tf_cfg.gridDim = %s; ", coarsened_grid(k, "__tf_grid"));
    int dims[3], f[3], n = launch_dims(k, dims, f);
    buf_puts(&b, "::tfuse_rt::LaunchAttrs __tf_attrs; ");
    for (int i = 0; i < n; i++)
      buf_printf(&b, "::tfuse_rt::coarsen_cluster_attrs(__tf_cfg, __tf_attrs, %d, %du, \"%s\", \"%s\"); ", dims[i], f[i],
                 k->sym->name, site);
    extent_locals(k, &b, &ext);
    if (k->dyn_shared) {
      dyn_share_locals(k, cond ? NULL : "__tf_cfg.dynamicSmemBytes", kernel, &b);
      buf_printf(&b, "__tf_cfg.dynamicSmemBytes = %du * (size_t)__tf_dsmem; ", k->p.factor);
      buf_puts(&ext, ", __tf_dsmem");
    }
  }
  buf_printf(&b, "return cudaLaunchKernelEx(&__tf_cfg, %s%s%s%s); ", kernel, ext.len ? ", " : "",
             ext.data ? ext.data : "", args_from(u, c, 2));
  replace_call(el, c, b.data);
  buf_free(&b);
  buf_free(&ext);
}

/* Thread mode, cudaLaunchKernel / cudaLaunchCooperativeKernel /
 * cudaLaunchKernelEx: a dispatch on the block, as for <<<...>>> launches
 * (add_thread_dispatch), the original launched through the same function:
 *   [&]() -> cudaError_t { static Fallback __tf_fb = {...}; const dim3 __tf_block = (b);
 *     if (serves_block(__tf_block, d, K, warps, __tf_fb))
 *       return cudaLaunchKernel(f, g, coarsen_block(__tf_block, ...), args, s, st);
 *     return cudaLaunchKernel(f__tf_orig, g, __tf_block, args, s, st); }()
 * (cudaLaunchKernelEx: a copy of the configuration, its blockDim tested
 * and, for the coarsened kernel, rescaled).  False where the original
 * cannot be named at the call: the caller rescales the block alone. */
/* Whether text spells block extents with integer literals (`256`,
 * `dim3(32, 8)`) that K divides along each coarsened dimension (in whole
 * warps where the kernel needs them): such a launch needs no dispatch. */
static bool literal_block_served(const char *text, const Kernel *k) {
  long dims[3] = {1, 1, 1};
  const char *p = text;
  while (*p == ' ')
    p++;
  bool ctor = !strncmp(p, "dim3", 4);
  if (ctor) {
    p += 4;
    while (*p == ' ')
      p++;
    if (*p++ != '(')
      return false;
  }
  for (int i = 0; i < 3; i++) {
    while (*p == ' ')
      p++;
    if (!isdigit((unsigned char)*p))
      return false;
    char *end;
    dims[i] = strtol(p, &end, 10);
    p = end;
    while (*p == 'u' || *p == 'U' || *p == ' ')
      p++;
    if (*p != ',' || !ctor)
      break;
    p++;
  }
  if (ctor && *p++ != ')')
    return false;
  while (*p == ' ')
    p++;
  if (*p)
    return false;
  int ds[3], f[3], n = launch_dims(k, ds, f);
  for (int i = 0; i < n; i++)
    if (dims[ds[i]] % f[i] != 0 || (k->whole_warps && dims[ds[i]] / f[i] % 32 != 0))
      return false;
  return true;
}

static bool api_thread_dispatch(Unit *u, const ApiCall *c, Kernel *k, unsigned at, const char *site, EditList *el) {
  bool ex = c->api->kind == API_LAUNCH_EX;
  if (!ex && literal_block_served(arg_text(u, c, 2, ""), k))
    return false; /* the block rescaled in place */
  char *orig = arg_renamed(u, c, k, at, original_name(k));
  if (!orig)
    return false;
  char *cond = thread_serve_condition_of(k, ex ? "__tf_cfg.blockDim" : "__tf_block");
  int kernel_arg = c->api->kernel_arg;
  Buf b = {0}, coarse = {0}, plain = {0};
  fallback_record(&b, k, site);
  if (ex) {
    buf_printf(&b, "cudaLaunchConfig_t __tf_cfg = *(%s); ", arg_text(u, c, 0, ""));
    buf_printf(&b, "if (%s) { __tf_cfg.blockDim = %s; return cudaLaunchKernelEx(&__tf_cfg%s); } ", cond,
               coarsened_block(k, "__tf_cfg.blockDim", site), args_from(u, c, 1));
    buf_printf(&b, "return cudaLaunchKernelEx(&__tf_cfg, %s%s); ", orig, args_from(u, c, 2));
  } else {
    buf_printf(&b, "const dim3 __tf_block = (%s); ", arg_text(u, c, 2, ""));
    for (int i = 0; i < c->nargs; i++) {
      const char *sep = i ? ", " : "";
      const char *a = arg_text(u, c, i, "");
      buf_printf(&coarse, "%s%s", sep, i == 2 ? coarsened_block(k, "__tf_block", site) : a);
      buf_printf(&plain, "%s%s", sep, i == 2 ? "__tf_block" : i == kernel_arg ? orig : a);
    }
    buf_printf(&b, "if (%s) return %s(%s); return %s(%s); ", cond, c->api->name, coarse.data, c->api->name,
               plain.data);
  }
  replace_call(el, c, b.data);
  buf_free(&b);
  buf_free(&coarse);
  buf_free(&plain);
  k->dispatches++;
  return true;
}

/* The attribute a cudaFuncSetAttribute call names, without its prefix. */
static const char *attribute_name(const Unit *u, const ApiCall *c) {
  const char *a = arg_text(u, c, 1, "");
  if (!strncmp(a, "::", 2))
    a += 2;
  if (!strncmp(a, "cudaFuncAttribute", 17))
    return a + 17;
  return a;
}

/* The dimension a RequiredCluster{Width,Height,Depth} attribute sets, or -1.
 * Block mode passes it on to the coarsened kernel divided as
 * __cluster_dims__ is (::tfuse_rt::coarsen_cluster), as a launch's cluster
 * attribute is, so the two agree. */
static int cluster_attribute_dim(const char *attr) {
  return !strcmp(attr, "RequiredClusterWidth") ? 0 : !strcmp(attr, "RequiredClusterHeight") ? 1
                                                 : !strcmp(attr, "RequiredClusterDepth")    ? 2
                                                                                            : -1;
}

/* Block mode, cudaFuncSetAttribute: why tfuse cannot pass the attribute on
 * to the coarsened kernel, or NULL where it can (the dynamic shared size,
 * scaled where divided: rewrite_api_use, every_variant). */
static const char *attribute_refusal(const char *attr) {
  if (!strcmp(attr, "MaxDynamicSharedMemorySize") || !strcmp(attr, "PreferredSharedMemoryCarveout") ||
      !strcmp(attr, "NonPortableClusterSizeAllowed") || !strcmp(attr, "ClusterSchedulingPolicyPreference"))
    return NULL;
  return !strncmp(attr, "RequiredCluster", 15) ? "a cluster's extent must divide the grid, which block mode rescales"
                                               : "tfuse cannot tell which attribute this is";
}

/* -factor auto: a hint (cudaFuncSetCacheConfig), or an attribute
 * (cudaFuncSetAttribute), for each variant, the first error returned:
 *   [&]() -> cudaError_t { const auto __tf_v = (cudaFuncCachePreferL1);
 *     cudaError_t __tf_e = cudaSuccess;
 *     __tf_e = cudaFuncSetCacheConfig(k__tf_k1, __tf_v);
 *     if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetCacheConfig(k__tf_bx2, __tf_v); ...; return __tf_e; }()
 * The original comes first, so the program sees its error, and the
 * variants are set only after it succeeded.  An attribute is each
 * variant's as rewrite_api_use makes it for that candidate, with one
 * difference: MaxDynamicSharedMemorySize for a variant (K shares of the
 * value where it divides its extern __shared__ array) is clamped to what
 * the device allows it (::tfuse_rt::dyn_shared_clamp), where the fixed
 * factor stops the program: a variant whose launch would need more is
 * infeasible for the runtime (tune.cpp), which then runs another, so the
 * call must not fail for it.  Any launch the original could make after the
 * call (a size of at most the value) gets what it needs in every feasible
 * variant: K shares of a smaller size are at most K shares of the value,
 * and feasibility is the shares within the clamp. */
static bool every_variant(Unit *u, const ApiCall *c, Kernel *k, unsigned at, EditList *el) {
  bool attribute = c->api->kind == API_SET_ATTRIBUTE;
  if (c->nargs != (attribute ? 3 : 2)) {
    error_at(at, "%s of '%s' with arguments tfuse cannot read; tfuse refuses to coarsen the kernel", c->api->name,
             k->sym->name);
    return false;
  }
  const char *attr = attribute ? attribute_name(u, c) : "";
  bool dyn_limit = attribute && !strcmp(attr, "MaxDynamicSharedMemorySize");
  Buf b = {0};
  buf_printf(&b, "const auto __tf_v = (%s); cudaError_t __tf_e = cudaSuccess; ", arg_text(u, c, attribute ? 2 : 1, ""));
  for (int v = 0; v < k->variants.len; v++) {
    Variant *var = k->variants.items[v];
    char *kernel = callee_renamed(arg_text(u, c, 0, ""), k->sym->name, var->name);
    if (!kernel) {
      error_at(at, "cannot find the name of '%s' in this call of %s", k->sym->name, c->api->name);
      buf_free(&b);
      return false;
    }
    const char *value = "__tf_v", *why = NULL;
    if (attribute && var->p.factor != 1 && var->p.mode == MODE_BLOCK && (why = attribute_refusal(attr))) {
      error_at(at, "-factor auto cannot route %s of '%s' to its candidate %s: it sets %s: %s; leave block mode out "
                   "of -tune-space or coarsen it with a fixed -factor", c->api->name, k->sym->name, var->label,
               attr, why);
      buf_free(&b);
      return false;
    }
    if (dyn_limit && var->p.factor != 1)
      value = arena_printf("::tfuse_rt::dyn_shared_clamp(%s, %s)", kernel,
                           var->p.mode == MODE_BLOCK && var->dyn_shared
                               ? arena_printf("%du * (size_t)::tfuse_rt::dyn_share(__tf_v)", var->p.factor)
                               : "__tf_v");
    buf_printf(&b, "%s__tf_e = %s(%s, %s%s%s); ", v ? "if (__tf_e == cudaSuccess) " : "", c->api->name, kernel,
               attribute ? arg_text(u, c, 1, "") : "", attribute ? ", " : "", value);
  }
  buf_puts(&b, "return __tf_e; ");
  replace_call(el, c, b.data);
  buf_free(&b);
  return true;
}

/* The kernel argument of c with k's name, at `at`, renamed to `to`; NULL
 * where it names k through a qualifier other than its namespace's (a
 * using-declaration), where `to` is not declared. */
static char *arg_renamed(const Unit *u, const ApiCall *c, const Kernel *k, unsigned at, const char *to) {
  const char *t = u->src->text;
  Span a = c->args[c->api->kernel_arg];
  size_t nl = strlen(k->sym->name);
  unsigned q = at;
  while (q > a.b && (ident_char(t[q - 1]) || t[q - 1] == ':' || t[q - 1] == ' '))
    q--;
  if (!callee_in_own_scope(k, arena_strndup(t + q, at + nl - q)))
    return NULL;
  return arena_printf("%.*s%s%.*s", (int)(at - a.b), t + a.b, to, (int)(a.e - at - nl), t + at + nl);
}

/* The name a query routes to: the original, kept beside the coarsened
 * kernel (launch_rewrite keeps it where Kernel.original_uses counts), or
 * -factor auto's original variant. */
static const char *original_target(Kernel *k) {
  if (k->p.factor != FACTOR_AUTO) {
    k->original_uses++;
    return original_name(k);
  }
  return k->variants.len > 0 ? ((Variant *)k->variants.items[0])->name : NULL;
}

/* A setter of the original (its error first, as without tfuse), then of
 * the coarsened kernel, given `value` for it (an expression of __tf_v). */
static bool set_both(Unit *u, const ApiCall *c, Kernel *k, const char *orig, const char *value, EditList *el) {
  bool attribute = c->api->kind == API_SET_ATTRIBUTE;
  const char *attr = attribute ? arena_printf("%s, ", arg_text(u, c, 1, "")) : "";
  replace_call(el, c, arena_printf("const auto __tf_v = (%s); cudaError_t __tf_e = %s(%s, %s__tf_v); "
                                   "if (__tf_e == cudaSuccess) __tf_e = %s(%s, %s%s); return __tf_e; ",
                                   arg_text(u, c, attribute ? 2 : 1, ""), c->api->name, orig, attr, c->api->name,
                                   arg_text(u, c, 0, ""), attr, value));
  return true;
}

/* One use of k as the kernel argument of c; false after a located error. */
static bool rewrite_api_use(Unit *u, const ApiCall *c, Kernel *k, unsigned at, bool check, EditList *el) {
  const char *name = k->sym->name, *api = c->api->name;
  int K = k->p.factor;
  bool block = k->p.mode == MODE_BLOCK;
  if (K == FACTOR_AUTO && (c->api->kind == API_SETTER || c->api->kind == API_SET_ATTRIBUTE))
    return every_variant(u, c, k, at, el);
  if (c->api->kind == API_QUERY) {
    const char *to = original_target(k);
    char *arg = to ? arg_renamed(u, c, k, at, to) : NULL;
    if (!arg) {
      error_at(at, "%s of '%s' must name the original kernel, which tfuse keeps as '%s', but it names the kernel "
                   "through a qualifier other than its namespace's; tfuse refuses to coarsen the kernel",
               api, name, to ? to : original_name(k));
      return false;
    }
    replace_span(el, c->args[c->api->kernel_arg], arg);
    return true;
  }
  if (c->api->kind == API_NAME && (block || K == FACTOR_AUTO)) {
    error_at(at, "'%s' is passed to %s: the coarsened kernel takes %s, and the original tfuse keeps is renamed, so "
                 "neither has the original's name; tfuse refuses to coarsen the kernel",
             name, api, K == FACTOR_AUTO ? "the variant's parameters" : "the grid extents first");
    return false;
  }
  if (c->api->kind == API_NAME)
    return true;
  if (K == FACTOR_AUTO) {
    error_at(at, "-factor auto cannot route '%s' passed to %s (each variant is a kernel of its own); coarsen it "
                 "with a fixed -factor", name, api);
    return false;
  }
  char *site = launch_site(u->src, c->b);
  switch (c->api->kind) {
  case API_SETTER:
  case API_SET_ATTRIBUTE: {
    if (c->nargs != (c->api->kind == API_SET_ATTRIBUTE ? 3 : 2))
      break;
    const char *orig = arg_renamed(u, c, k, at, original_target(k));
    if (!orig) {
      error_at(at, "%s of '%s' must also set the original kernel, which tfuse keeps as '%s', but it names the "
                   "kernel through a qualifier other than its namespace's; tfuse refuses to coarsen the kernel",
               api, name, original_name(k));
      return false;
    }
    const char *value = "__tf_v";
    if (c->api->kind == API_SET_ATTRIBUTE && block) {
      const char *attr = attribute_name(u, c), *why = NULL;
      int cd = cluster_attribute_dim(attr), dims[3], f[3], n = launch_dims(k, dims, f);
      if (!strcmp(attr, "MaxDynamicSharedMemorySize") && k->dyn_shared)
        value = arena_printf("::tfuse_rt::dyn_shared_limit(%s, %s)", arg_text(u, c, 0, ""),
                             scaled_dyn_shared(k, "__tf_v"));
      else if (cd >= 0) {
        for (int i = 0; i < n; i++)
          if (dims[i] == cd)
            value = arena_printf("(int)::tfuse_rt::coarsen_cluster((unsigned int)__tf_v, %du)", f[i]);
      } else if ((why = attribute_refusal(attr))) {
        error_at(at, "%s of '%s' sets %s: %s; tfuse refuses to coarsen it in block mode", api, name, attr, why);
        return false;
      }
    }
    return set_both(u, c, k, orig, value, el);
  }
  case API_LAUNCH:
  case API_LAUNCH_EX:
    if (check) {
      error_at(at, "-check cannot route this launch of '%s' through %s; write it as %s<<<...>>>(...)", name, api,
               name);
      return false;
    }
    if (c->nargs < (c->api->kind == API_LAUNCH ? 4 : 2))
      break;
    k->indirect_launches++;
    if (!block && api_thread_dispatch(u, c, k, at, site, el))
      return true;
    if (c->api->kind == API_LAUNCH_EX)
      launch_ex(u, c, k, at, site, el);
    else if (block)
      return launch_api_block(u, c, k, at, site, el);
    else
      replace_span(el, c->args[2], coarsened_block(k, arg_text(u, c, 2, ""), site));
    return true;
  case API_QUERY:
  case API_NAME:
    break;
  }
  error_at(at, "%s of '%s' with arguments tfuse cannot read; tfuse refuses to coarsen the kernel", api, name);
  return false;
}

/* What check_other_uses works with. */
typedef struct {
  Unit *u;
  Vec *kernels;
  bool pointers; /* uses that store or compare function pointers are recorded */
  bool check;
  EditList *el;
  Vec calls; /* Node*: calls of kernel_apis rewritten (a macro that expands its argument twice: once) */
} Uses;

/* A dependent name (candidates n->cand) in a host template: whether every
 * instantiation names k, i.e. every candidate is k's template and k has no
 * explicit specialization the instantiation might pick instead. */
static bool only_kernel(const Unit *u, const Node *n, const Kernel *k) {
  for (int i = 0; i < n->ncand; i++)
    if (n->cand[i] != k->sym)
      return false;
  for (int i = 0; i < u->functions.len; i++)
    if (((Node *)u->functions.items[i])->sym->spec_of == k->sym)
      return false;
  return true;
}

/* Whether n names k: a reference to it, or in a host template a name
 * whose candidates include it (`k<T>`: clang resolves it per instantiation). */
static bool names_kernel(const Node *n, const Kernel *k) {
  if (n->kind == N_DECL_REF)
    return n->sym == k->sym;
  for (int i = 0; i < n->ncand && n->kind == N_OTHER; i++)
    if (n->cand[i] == k->sym)
      return true;
  return false;
}

/* The name of the function a use is an argument of (through parentheses,
 * casts and `&`), or NULL. */
static const char *argument_of(const Node *n) {
  const Node *p = n->parent;
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN || p->kind == N_CAST ||
               (p->kind == N_UNOP && p->op == OP_ADDR)))
    p = p->parent;
  if (!p || p->kind != N_CALL || p->is_launch || p->nkid == 0 || node_strip(p->kid[0]) == n)
    return NULL;
  return p->spelling ? p->spelling : p->sym ? p->sym->name : NULL;
}

/* One use of k's name, not the callee of a launch; false after a located error. */
static Node *enclosing_function(Node *n);

static bool other_use(Uses *x, Node *n, Kernel *k) {
  Unit *u = x->u;
  unsigned at = use_at(u, n, k);
  if (x->pointers && k->p.factor != FACTOR_AUTO && n->kind == N_DECL_REF && !n->in_macro && is_address_use(n) &&
      at == n->loc) {
    vec_push(&k->address_uses, n);
    return true;
  }
  if (n->kind == N_OTHER && !only_kernel(u, n, k)) {
    error_at(at, "'%s' may be named here, in a host template, where an instantiation may also name another function "
                 "(an overload, an explicit specialization); tfuse refuses to coarsen the kernel", k->sym->name);
    return false;
  }
  ApiCall c = api_call_of(u, n, k);
  const char *callee;
  if (c.api && c.e) {
    for (int i = 0; i < x->calls.len; i++) {
      Node *d = x->calls.items[i];
      if (d->begin == c.b)
        return true;
    }
    Node *mark = arena_alloc(sizeof *mark);
    mark->begin = c.b;
    vec_push(&x->calls, mark);
    return rewrite_api_use(u, &c, k, at, x->check, x->el);
  }
  Node *p = n->parent;
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN))
    p = p->parent;
  Node *fn = enclosing_function(n);
  if (p && p->kind == N_CALL && p->device_launch && fn && fn->sym)
    error_at(at, "'%s' is launched here from device code ('%s': dynamic parallelism); tfuse rescales the launches "
                 "the host makes, so it leaves the kernel unchanged", k->sym->name, fn->sym->name);
  else if (c.api)
    error_at(at, "'%s' is passed to %s in a macro's body; tfuse cannot rewrite it there, so it refuses to coarsen "
                 "the kernel; expand the macro by hand", k->sym->name, c.api->name);
  else if ((callee = argument_of(n)))
    error_at(at, "'%s' is passed to %s, which tfuse does not model: it may launch or describe the kernel, which "
                 "runs coarsened; tfuse refuses to coarsen the kernel", k->sym->name, callee);
  else
    error_at(at, "'%s' is used here other than in a <<<...>>> launch%s; tfuse cannot rescale such a launch, so it "
                 "refuses to coarsen the kernel",
             k->sym->name, x->pointers ? " or as a function pointer's value" : "");
  return false;
}

/* Any use of a kernel's name other than as the callee of a launch would
 * escape the rescaling.  A kernel argument of the runtime's functions
 * (kernel_apis) is rewritten or refused there.  With `pointers`, a use
 * that stores or compares a function pointer (is_address_use) is recorded
 * in Kernel.address_uses instead: it will name the original kernel, kept
 * in the output, and launches through pointers dispatch on it
 * (pointer_dispatch).  Every error names the kernel, at its name. */
static bool check_other_uses(Uses *x, Node *n) {
  bool ok = true;
  if (n->kind == N_DECL_REF || n->ncand > 0)
    for (int j = 0; j < x->kernels->len; j++) {
      Kernel *k = x->kernels->items[j];
      if (names_kernel(n, k) && k->p.factor != 1) /* -factor auto (0) too: its variants are renamed */
        ok &= other_use(x, n, k);
    }
  /* The callee of a launch (kid 0) is the one use that is rewritten. */
  for (int i = n->is_launch ? 1 : 0; i < n->nkid; i++)
    ok &= check_other_uses(x, n->kid[i]);
  return ok;
}

/* Every function of the unit (check_other_uses). */
static bool other_uses(Unit *u, Vec *kernels, bool pointers, bool check, EditList *el) {
  Uses x = {.u = u, .kernels = kernels, .pointers = pointers, .check = check, .el = el};
  bool ok = true;
  for (int i = 0; i < u->functions.len; i++)
    ok &= check_other_uses(&x, u->functions.items[i]);
  for (int i = 0; i < u->global_vars.len; i++)
    ok &= check_other_uses(&x, u->global_vars.items[i]);
  vec_free(&x.calls);
  return ok;
}

/* A kernel whose address a function pointer may hold, or that the
 * runtime's queries and setters name (kernel_apis): the pointer holds the
 * original, kept in the output as `k__tf_orig`, so a launch through it
 * that tfuse does not rewrite (in another file, inside an expression) runs
 * the original kernel on the original grid, as written; the queries
 * answer for it. */
static void keep_original_for_uses(Unit *u, Kernel *k, EditList *el) {
  const char *name = k->sym->name;
  launch_keep_original(
      u, k, el,
      k->address_uses.len
          ? arena_printf("tfuse: the original '%s', which function pointers hold; a launch through one runs '%s' "
                         "coarsened", name, name)
      : k->original_uses
          ? arena_printf("tfuse: the original '%s', which the runtime's queries describe; its launches run '%s' "
                         "coarsened", name, name)
          : arena_printf("tfuse: the original '%s', which a launch runs where the coarsened kernel cannot serve its "
                         "shape", name));
  for (int i = 0; i < k->address_uses.len; i++) {
    Node *n = k->address_uses.items[i];
    edit_replace(el, n->loc, (unsigned)strlen(k->sym->name), original_name(k));
  }
}

/* A launch through a function pointer that may hold coarsened kernels
 * (those of its pointee type with address uses) becomes a dispatch on the
 * pointer's value, which runs the coarsened kernel, with its launch
 * rescaled, where the pointer holds that kernel's original:
 *   { auto __tf_fp = (p);
 *     if (__tf_fp == &k__tf_orig) { const dim3 __tf_grid = (g); k<<<coarsen_grid(..), b>>>(grid_extent(..), x); }
 *     else __tf_fp<<<g, b>>>(x); }
 * One branch runs, so the configuration and arguments are evaluated once. */
static bool pointer_dispatch(Unit *u, Node *call, Vec *targets, EditList *el) {
  const Source *src = u->src;
  const char *t = src->text;
  Kernel *k0 = targets->items[0];
  if (call->in_macro || call->end <= call->begin || !in_statement_position(call)) {
    warning_at(call->begin, "this launch through a function pointer that may hold '%s' is not a statement of its "
                            "own; it runs the original kernel", k0->sym->name);
    return true;
  }
  unsigned cb, ce;
  Span parts[4];
  int np = launch_parts(u, call, k0, &cb, &ce, parts);
  unsigned end = np ? launch_statement_end(u, call, k0) : 0;
  if (!end)
    return false;
  unsigned lp = args_open(src, call, ce);
  char *site = launch_site(src, call->begin);
  const char *ind = source_indent(src, call->begin);

  Buf b = {0};
  buf_printf(&b, "{ auto __tf_fp = (%s);", span_text(src, (Span){call->begin, cb - 3}));
  for (int i = 0; i < targets->len; i++) {
    Kernel *k = targets->items[i];
    buf_printf(&b, "\n%s  %sif (__tf_fp == &%s) { ", ind, i ? "else " : "", original_name(k));
    char *cond = k->p.mode == MODE_THREAD ? thread_serve_condition(call, k, "__tf_block") : NULL;
    if (k->p.mode == MODE_BLOCK) {
      add_block_launch(u, call, k, parts, np, cb, ce, "", k->sym->name, "__tf_fp", &b);
    } else if (cond) {
      add_thread_dispatch(u, call, k, parts, np, ce, cond, k->sym->name, "__tf_fp", "", &b);
    } else {
      buf_printf(&b, "%s<<<%s, %s", k->sym->name, span_text(src, parts[0]),
                 coarsened_block(k, span_text(src, parts[1]), site));
      for (int p = 2; p < np; p++)
        buf_printf(&b, ", %s", span_text(src, parts[p]));
      buf_puts(&b, ">>>");
      buf_add(&b, t + lp, call->end - lp);
    }
    buf_puts(&b, cond ? "}" : "; }");
    k->indirect_launches++;
  }
  buf_printf(&b, "\n%s  else __tf_fp<<<", ind);
  buf_add(&b, t + cb, call->end - cb);
  buf_printf(&b, "; }");
  edit_replace(el, call->begin, end - call->begin, b.data);
  buf_free(&b);
  return true;
}

/* The coarsened kernels a launch through a pointer of this type may reach. */
static void pointer_targets(const Node *call, Vec *kernels, Vec *out) {
  out->len = 0;
  if ((call->sym && call->sym->kind == SYM_FUNC) || call->ncand > 0 || !call->callee_fn_type)
    return;
  for (int j = 0; j < kernels->len; j++) {
    Kernel *k = kernels->items[j];
    if (k->address_uses.len > 0 && k->sym->fn_type && !strcmp(k->sym->fn_type, call->callee_fn_type))
      vec_push(out, k);
  }
}

size_t skip_comment_or_literal(const char *t, size_t len, size_t i) {
  if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
    while (i < len && t[i] != '\n')
      i++;
    return i;
  }
  if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
    i += 2;
    while (i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'))
      i++;
    return i + 2 < len ? i + 2 : len;
  }
  if (t[i] == '"' || t[i] == '\'') {
    char q = t[i++];
    while (i < len && t[i] != q && t[i] != '\n')
      i += t[i] == '\\' ? 2 : 1;
    return i < len ? i + 1 : len;
  }
  return i;
}


/* The text's own word for it: every `NAME<<<` or `NAME<...><<<` of a
 * coarsened kernel in the file must be a launch that was rewritten.  One
 * that is not (in a host template whose arguments clang leaves dependent,
 * in a macro body) would run the coarsened kernel on the original grid,
 * which in thread mode compiles and runs K times too many threads.  In
 * thread mode a kernel with no launch in the file is refused for the same
 * reason; in block mode its signature changes, so a launch elsewhere no
 * longer compiles, and a warning says so. */
/* The offset of the #define directive that offset `off` lies in (continued
 * lines too), or ~0u if none. */
static unsigned define_start(const Source *src, unsigned off) {
  const char *t = src->text;
  unsigned b = off;
  for (;;) {
    while (b > 0 && t[b - 1] != '\n')
      b--;
    if (b >= 2 && t[b - 2] == '\\')
      b--; /* the previous line continues into this one */
    else
      break;
  }
  while (b < src->len && (t[b] == ' ' || t[b] == '\t'))
    b++;
  if (b >= src->len || t[b] != '#')
    return ~0u;
  unsigned hash = b++;
  while (b < src->len && (t[b] == ' ' || t[b] == '\t'))
    b++;
  return !strncmp(t + b, "define", 6) ? hash : ~0u;
}

static bool check_unrewritten(Unit *u, Kernel *k, Vec *done, bool external) {
  if (k->p.factor <= 1)
    return true;
  const char *t = u->src->text, *name = k->sym->name;
  size_t len = u->src->len, nl = strlen(name);
  bool ok = true;
  int launches = 0;
  for (size_t i = 0; i < len;) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    bool word = (i == 0 || !ident_char(t[i - 1])) && i + nl <= len && !strncmp(t + i, name, nl) &&
                !(i + nl < len && ident_char(t[i + nl]));
    if (!word) {
      i++;
      continue;
    }
    if (launch_chevrons(u->src, (unsigned)(i + nl))) {
      bool rewritten = false;
      for (int d = 0; d < done->len && !rewritten; d++) {
        Node *c = done->items[d];
        rewritten = c->begin <= i && i < c->end;
      }
      /* A launch of another function of the same name (the template of an
       * explicit specialization, an overload) is not this kernel's. */
      bool other = false;
      for (int d = 0; d < u->launches.len && !rewritten && !other; d++) {
        Node *c = u->launches.items[d];
        other = c->begin <= i && i < c->end && c->sym && c->sym != k->sym && !c->in_macro;
      }
      if (rewritten) {
        launches++;
      } else if (other) {
        /* not ours */
      } else if (define_start(u->src, (unsigned)i) != ~0u &&
                 !macro_uses_may_launch(u, k, define_start(u->src, (unsigned)i), (unsigned)i)) {
        /* a #define whose uses were all expanded (macros.c) */
      } else {
        error_at((unsigned)i, "launch of coarsened kernel '%s' that tfuse cannot rewrite (in a template it "
                              "cannot resolve, or a macro); it would run on the original grid", name);
        ok = false;
      }
    }
    i += nl;
  }
  if (ok && launches + k->indirect_launches == 0) {
    if (k->p.mode == MODE_THREAD && !external) {
      error_at(k->fn->loc, "no launch of '%s' in this file: in thread mode a launch elsewhere would run K "
                           "times too many threads; coarsen the file that launches it", name);
      ok = false;
    } else if (k->p.mode == MODE_THREAD) {
      warning_at(k->fn->loc, "no launch of '%s' in this file: each launch elsewhere must divide the block's "
                             "%s extent by %s", name, params_dim_text(&k->p), params_factor_text(&k->p));
    } else if (!external) {
      warning_at(k->fn->loc, "no launch of '%s' in this file: a launch elsewhere must pass the original grid "
                             "extent first (its signature now begins with 'unsigned int __tf_grid_%s')",
                 name, dim_name(k->p.dim));
    }
  }
  return ok;
}

/* The launch's configuration call (__cudaPushCallConfiguration). */
static Node *launch_config(Node *call) { return call->nkid > 1 ? call->kid[1] : NULL; }

static Node *enclosing_function(Node *n) {
  while (n && n->kind != N_FUNC)
    n = n->parent;
  return n;
}

/* Whether every use of `var` in `n` is a launch's configuration argument
 * (copied there, never written). */
static bool only_read_by_launches(Node *n, Sym *var) {
  if (n->kind == N_DECL_REF && n->sym == var) {
    Node *p = n->parent;
    while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN || (p->kind == N_CALL && p->sym && p->sym->is_ctor)))
      p = p->parent;
    return p && p->kind == N_CALL && p->spelling && !strcmp(p->spelling, "__cudaPushCallConfiguration");
  }
  for (int i = 0; i < n->nkid; i++)
    if (!only_read_by_launches(n->kid[i], var))
      return false;
  return true;
}

/* Block mode multiplies a thread's registers by about K while the block
 * keeps its size, so a kernel launched with large blocks may no longer fit
 * the register file ("too many resources requested for launch").  Where
 * every launch in the file has a block size clang evaluates, the kernel
 * gets `__launch_bounds__(largest)` (unless it has its own), so ptxas
 * budgets registers for it (spilling rather than failing).  Blocks of 256
 * threads or fewer leave ptxas its full budget, so nothing is added. */
static void bound_block_threads(Unit *u, Kernel *k, Vec *done, EditList *el) {
  if (k->p.mode != MODE_BLOCK || k->p.factor <= 1 || k->indirect_launches > 0)
    return; /* a launch through a pointer or cudaLaunchKernel: its block is not read */
  if (has_launch_bounds(u->src, k))
    return;
  long most = 0;
  for (int i = 0; i < done->len; i++) {
    Node *call = done->items[i];
    if (call->sym != k->sym)
      continue;
    Node *cfg = launch_config(call);
    if (!cfg || cfg->block_threads <= 0)
      return;
    if (cfg->block_var && !only_read_by_launches(enclosing_function(call), cfg->block_var))
      return; /* its initial value may not be the one launched with */
    if (cfg->block_threads > most)
      most = cfg->block_threads;
  }
  if (most > 256 && most <= 1024)
    edit_insert(el, k->fn->loc, arena_printf("__launch_bounds__(%ld) ", most));
}

/* Whether `call` launches kernel k: its callee is k, or, in a host
 * template, a dependent name (`k<T><<<...>>>`) whose every candidate is k's
 * template and k has no explicit specialization the instantiation might
 * pick instead. */
static bool launches_kernel(Unit *u, const Node *call, const Kernel *k) {
  if (call->sym)
    return call->sym == k->sym;
  return call->ncand > 0 && only_kernel(u, call, k);
}

/* A kernel whose every launch in the file has a constant shape that the
 * coarsened kernel can never serve (thread mode: `k<<<1, 1>>>` at K = 2)
 * would only ever run its original: it is left unchanged, with the reason.
 * Other launches (through pointers, the runtime's launch functions) count
 * as served. */
static bool some_launch_served(Unit *u, Kernel *k) {
  if (k->p.mode != MODE_THREAD || k->p.factor <= 1 || k->indirect_launches > 0)
    return true;
  Node *first = NULL;
  char *why = NULL;
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    if (!launches_kernel(u, call, k))
      continue;
    char *w = never_served(call, k);
    if (!w)
      return true;
    if (!first) {
      first = call;
      why = w;
    }
  }
  if (first)
    error_at(first->begin, "every launch of '%s' in this file has a block the kernel coarsened by %d could never "
                           "serve (here %s), so it would only ever run the original",
             k->sym->name, k->p.factor, why);
  return !first;
}

bool launch_rewrite(Unit *u, Vec *kernels, const Options *opt, EditList *el) {
  reach_cache.len = 0; /* kernels of an earlier call (or project) may share addresses with these */
  bool check = opt->check;
  bool ok = true;
  /* What an earlier call recorded (the driver may try a kernel alone first). */
  for (int j = 0; j < kernels->len; j++) {
    Kernel *k = kernels->items[j];
    vec_free(&k->address_uses);
    k->indirect_launches = 0;
    k->original_uses = 0;
    k->dispatches = 0;
  }
  ok = other_uses(u, kernels, !check, check, el);
  if (!ok)
    return false;
  for (int j = 0; j < kernels->len; j++)
    ok &= some_launch_served(u, kernels->items[j]);
  if (!ok)
    return false;
  Vec done = {0}; /* Node*: the launches rewritten */
  Vec targets = {0};
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    pointer_targets(call, kernels, &targets);
    if (targets.len > 0) {
      ok &= pointer_dispatch(u, call, &targets, el);
      vec_push(&done, call);
      continue;
    }
    for (int j = 0; j < kernels->len; j++) {
      Kernel *k = kernels->items[j];
      if (launches_kernel(u, call, k) && k->p.factor > 1) {
        /* A macro that expands its argument twice makes two launches of
         * one text: rewritten once. */
        bool twin = false;
        for (int d = 0; d < done.len && !twin; d++) {
          Node *c = done.items[d];
          twin = c->launch_in_macro_arg && locate_launch_text(u, call, k) && c->begin == call->begin &&
                 c->end == call->end;
        }
        if (!twin)
          ok &= rewrite_one(u, call, k, check, el);
        vec_push(&done, call);
      }
    }
  }
  vec_free(&targets);
  for (int j = 0; j < kernels->len; j++) {
    Kernel *k = kernels->items[j];
    if (k->address_uses.len > 0 || (!check && (k->original_uses > 0 || k->dispatches > 0)))
      keep_original_for_uses(u, k, el); /* -check keeps it already (the driver) */
  }
  for (int j = 0; j < kernels->len; j++) {
    ok &= check_unrewritten(u, kernels->items[j], &done, opt->external_launches);
    bound_block_threads(u, kernels->items[j], &done, el);
  }
  vec_free(&done);
  return ok;
}

/* -factor auto: each launch of k becomes a dispatch among the kernel's
 * variants (variants.c) through the tuning runtime (tune.h):
 *   { const dim3 __tf_grid = (g); const dim3 __tf_block = (b);
 *     const size_t __tf_smem = (s); const cudaStream_t __tf_stream = (st);
 *     auto __tf_a0 = (next());                (arguments with side effects)
 *     static const tfuse_tune_cand __tf_cands[] = {{0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}};
 *     static tfuse_tune_site __tf_site = {"k", "HASH", "file.cu:12", 2, __tf_cands, 0};
 *       (a launch whose kernel depends on a host template's parameters adds
 *       __PRETTY_FUNCTION__, its instantiation, to the key)
 *     auto __tf_launch = [&](int __tf_c) { switch (__tf_c) {
 *       case 1: k__tf_bx2<<<coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_smem, __tf_stream>>>(
 *                 grid_extent(__tf_grid, 0), out, __tf_a0); break;
 *       default: k__tf_k1<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(out, __tf_a0); break; } };
 *       (a variant that divides an extern __shared__ array among its logical
 *       blocks, Variant.dyn_shared, is launched with K shares of the size,
 *       `2u * (size_t)::tfuse_rt::dyn_share(__tf_smem)`, and passed one
 *       share after the extents; its entry in the table adds `1, (const
 *       void *)k__tf_bx2` (0 where a template kernel's launch deduces its
 *       arguments), with which the runtime counts it infeasible where the
 *       shares and its static bytes pass what the device allows, and opts
 *       in above 48 KB: tune.cpp)
 *     ::tfuse_rt::Tune __tf_tune(&__tf_site, __tf_grid, __tf_block, __tf_smem, __tf_stream);
 *     if (__tf_tune.tuning()) { __tf_tune.track(out, "out"); __tf_tune.tune(__tf_launch); }
 *     __tf_launch(__tf_tune.choice()); }
 * A launch in a macro's argument or inside a larger expression becomes
 * that block as a lambda called on the spot, `[&] { ... }()`: an
 * expression wherever the launch stood (its commas are the launch's own
 * company: a launch's `<<<g, b>>>` already needs a variadic macro or
 * parentheses around it).  A launch in a macro's body has no text to rewrite. */
/* The offset of a using-declaration of the kernel's name (`using ns::k;`)
 * in the project's text, or -1: -factor auto renames the kernel, and the
 * declaration would then name nothing. */
static long using_declaration(const Source *src, const char *name) {
  const char *t = src->text;
  size_t len = src->len, nl = strlen(name);
  for (size_t i = 0; i + 5 < len;) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    if (strncmp(t + i, "using", 5) || (i > 0 && ident_char(t[i - 1])) || ident_char(t[i + 5])) {
      i++;
      continue;
    }
    size_t e = i + 5;
    while (e < len && t[e] != ';' && t[e] != '{' && t[e] != '=')
      e++;
    /* `using a::b::name;`: the last name before the `;` is the kernel's. */
    size_t n = e;
    while (n > i && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\n'))
      n--;
    if (e < len && t[e] == ';' && n >= i + 5 + nl && !strncmp(t + n - nl, name, nl) && !ident_char(t[n - nl - 1]) &&
        t[n - nl - 1] == ':')
      return (long)i;
    i = e;
  }
  return -1;
}

bool launch_rewrite_auto(Unit *u, Kernel *k, EditList *el) {
  const Source *src = u->src;
  const char *t = src->text;
  bool ok = true;
  long using_at = using_declaration(src, k->sym->name);
  if (using_at >= 0) {
    error_at((unsigned)using_at, "-factor auto renames '%s', which this using-declaration names; refer to it "
                                 "through its namespace", k->sym->name);
    return false;
  }
  Vec one = {0};
  vec_push(&one, k);
  ok = other_uses(u, &one, false, false, el);
  vec_free(&one);
  Vec done = {0};
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    if (!launches_kernel(u, call, k))
      continue;
    if (!locate_launch_text(u, call, k)) {
      error_at(call->begin, "-factor auto cannot route this launch of '%s' (written in a macro's body, or naming "
                            "the kernel with a qualifier); write it as '%s<<<...>>>(...)'",
               k->sym->name, k->sym->name);
      ok = false;
      continue;
    }
    bool twin = false;
    for (int d = 0; d < done.len && !twin; d++)
      twin = ((Node *)done.items[d])->begin == call->begin;
    if (twin)
      continue;
    vec_push(&done, call);
    unsigned cb, ce;
    Span parts[4];
    int np = launch_parts(u, call, k, &cb, &ce, parts);
    /* In a macro's argument or a larger expression: a lambda called on the spot. */
    bool expr = call->launch_in_macro_arg || !in_statement_position(call);
    unsigned end = !np ? 0 : expr ? call->end : launch_statement_end(u, call, k);
    if (!end) {
      ok = false;
      continue;
    }
    char *callee = arena_strndup(t + call->begin, cb - 3 - call->begin);
    char *site = launch_site(src, call->begin);
    if (!callee_in_own_scope(k, callee)) {
      error_at(call->begin, "-factor auto cannot route this launch of '%s': it names the kernel through a qualifier "
                            "other than its namespace's, where the variants are not declared", k->sym->name);
      ok = false;
      continue;
    }
    if (source_has_directive(src, call->begin, call->end)) {
      error_at(call->begin, "-factor auto cannot route this launch of '%s': a preprocessor directive (#if ...) "
                            "inside it would be copied into each variant's launch; coarsen it with a fixed -factor",
               k->sym->name);
      ok = false;
      continue;
    }

    /* Arguments, evaluated once: simple ones as written, others in locals. */
    Node *params[64];
    int npar = kernel_params(k, params, 64);
    Buf pre = {0}, args = {0}, track = {0};
    int nargs = 0;
    /* Their text is the launch's own (in a macro's argument, the nodes'
     * extents are the whole invocation); default arguments come last and
     * have none. */
    Span written[64];
    int nwritten = launch_arg_texts(u, call, ce, written, 64);
    for (int a = 0; a < nwritten && 2 + a < call->nkid; a++) {
      Node *arg = call->kid[2 + a];
      char *text = span_text(src, written[a]);
      char *use = text;
      if (node_has_side_effects(arg)) {
        use = arena_printf("__tf_a%d", nargs);
        buf_printf(&pre, "auto %s = (%s); ", use, text);
      }
      buf_printf(&args, "%s%s", nargs ? ", " : "", use);
      if (nargs < npar && params[nargs]->sym && params[nargs]->sym->is_pointer && !params[nargs]->sym->pointee_const)
        buf_printf(&track, "__tf_tune.track(%s, \"%s\"); ", use, params[nargs]->sym->name);
      nargs++;
    }
    char *ind = source_indent(src, call->begin);
    Buf b = {0}, cands = {0}, cases = {0};
    for (int v = 0; v < k->variants.len; v++) {
      Variant *var = k->variants.items[v];
      int d = var->p.dim;
      int mode = var->p.factor == 1 ? 0 : var->p.mode == MODE_BLOCK ? 1 : var->whole_warps ? 3 : 2;
      char *vcallee = callee_renamed(callee, k->sym->name, var->name);
      if (!vcallee) {
        error_at(call->begin, "cannot find the name of '%s' in this launch", k->sym->name);
        ok = false;
        break;
      }
      /* A variant that divides its extern __shared__ array: K shares, and
       * the variant itself for the runtime's feasibility and opt-in. */
      bool divides = mode == 1 && var->dyn_shared;
      buf_printf(&cands, "%s{%d, %d, %du, \"%s\"", v ? ", " : "", mode, d, var->p.factor, var->label);
      if (divides)
        buf_printf(&cands, ", 1, %s",
                   callee_nameable(u, k, vcallee) ? arena_printf("(const void *)%s", vcallee) : "0");
      buf_puts(&cands, "}");
      char *smem = divides ? arena_printf("%du * (size_t)::tfuse_rt::dyn_share(__tf_smem)", var->p.factor)
                           : "__tf_smem";
      Kernel vk = *k; /* the variant's dimensions and factors (two for block.xy:AxB) */
      vk.p = var->p;
      char *grid = mode == 1 ? coarsened_grid(&vk, "__tf_grid") : "__tf_grid";
      char *block = mode >= 2 ? arena_printf("::tfuse_rt::coarsen_block%s(__tf_block, %d, %du, \"%s\", \"%s\")",
                                             mode == 3 ? "_warps" : "", d, var->p.factor, k->sym->name, site)
                              : "__tf_block";
      char *extent = mode == 1 ? arena_printf("%s%s%s", grid_extents(&vk, "__tf_grid"),
                                              divides ? ", ::tfuse_rt::dyn_share(__tf_smem)" : "", nargs ? ", " : "")
                               : "";
      buf_printf(&cases, "%s    %s: %s<<<%s, %s, %s, __tf_stream>>>(%s%s); break;\n", ind,
                 v ? arena_printf("case %d", v) : "default", vcallee, grid, block, smem, extent,
                 args.data ? args.data : "");
    }
    buf_printf(&b, "%s{ const dim3 __tf_grid = (%s); const dim3 __tf_block = (%s);\n", expr ? "[&] " : "",
               span_text(src, parts[0]), span_text(src, parts[1]));
    buf_printf(&b, "%s  const size_t __tf_smem = (%s); const cudaStream_t __tf_stream = (%s);\n", ind,
               np > 2 ? span_text(src, parts[2]) : "0", np > 3 ? span_text(src, parts[3]) : "0");
    if (pre.len)
      buf_printf(&b, "%s  %.*s\n", ind, (int)pre.len - 1, pre.data);
    buf_printf(&b, "%s  static const tfuse_tune_cand __tf_cands[] = {%s};\n", ind, cands.data);
    /* A launch that names the kernel through a host template's parameters
     * launches another instantiation in each of the template's: the
     * enclosing function's __PRETTY_FUNCTION__ keeps their keys apart. */
    buf_printf(&b, "%s  static tfuse_tune_site __tf_site = {\"%s\", \"%s\", \"%s\", %d, __tf_cands, %s%s%s%s};\n", ind,
               k->sym->name, k->tune_hash, site, k->variants.len, k->untunable ? "\"" : "",
               k->untunable ? k->untunable : "0", k->untunable ? "\"" : "", call->sym ? "" : ", __PRETTY_FUNCTION__");
    buf_printf(&b, "%s  auto __tf_launch = [&](int __tf_c) {\n%s    switch (__tf_c) {\n%s%s    }\n%s  };\n", ind, ind,
               cases.data, ind, ind);
    buf_printf(&b, "%s  ::tfuse_rt::Tune __tf_tune(&__tf_site, __tf_grid, __tf_block, __tf_smem, __tf_stream);\n",
               ind);
    buf_printf(&b, "%s  if (__tf_tune.tuning()) { %s__tf_tune.tune(__tf_launch); }\n", ind,
               track.data ? track.data : "");
    buf_printf(&b, "%s  __tf_launch(__tf_tune.choice());\n%s}%s", ind, ind, expr ? "()" : "");
    edit_replace(el, call->begin, end - call->begin, b.data);
    buf_free(&b);
    buf_free(&cands);
    buf_free(&cases);
    buf_free(&pre);
    buf_free(&args);
    buf_free(&track);
  }
  if (ok && done.len == 0)
    warning_at(k->fn->loc, "no launch of '%s' in this file: -factor auto renamed its variants, so a launch "
                           "elsewhere no longer compiles", k->sym->name);
  vec_free(&done);
  return ok;
}
