/* site: the text of a launch site and the shapes a coarsened kernel serves.
 *
 * Contract: the vocabulary launch.c, chevrons.c, kernel_apis.c and
 * kernel_uses.c share: a launch's configuration split into its parts, its
 * statement's end, the callee renamed (k<T> -> k__tf_orig<T>), the new grid
 * and block as the prelude's helpers compute them from the user's own
 * expressions, the kept original kernel, the conditions under which the
 * coarsened kernel serves a launch (the block a multiple of K, whole warps,
 * registers and shared memory within the device's limits) and the record
 * of a site that falls back to the original. */
#include "passes.h"
#include "launch_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
int split_config(const Source *src, unsigned b, unsigned e, Node *const *args, int nargs, Span *parts,
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

char *span_text(const Source *src, Span s) {
  while (s.b < s.e && (src->text[s.b] == ' ' || src->text[s.b] == '\n' || src->text[s.b] == '\t'))
    s.b++;
  while (s.e > s.b && (src->text[s.e - 1] == ' ' || src->text[s.e - 1] == '\n' || src->text[s.e - 1] == '\t'))
    s.e--;
  return arena_strndup(src->text + s.b, s.e - s.b);
}

/* The `(` opening a launch's arguments, after its `>>>` at ce (or the
 * call's end where there is none). */
unsigned args_open(const Source *src, const Node *call, unsigned ce) {
  unsigned lp = ce + 3;
  while (lp < call->end && src->text[lp] != '(')
    lp++;
  return lp;
}

bool in_statement_position(const Node *call) {
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

/* The coarsened dimensions and their factors: one, or several (nested
 * calls of the prelude's helpers, x first). */
int launch_dims(const Kernel *k, int *dims, int *factors) {
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
char *coarsened_grid(const Kernel *k, const char *grid) {
  int dims[3], f[3], n = launch_dims(k, dims, f);
  char *t = (char *)grid;
  for (int i = 0; i < n; i++)
    t = arena_printf("::tfuse_rt::coarsen_grid(%s, %d, %du)", t, dims[i], f[i]);
  return t;
}

/* Block mode: the original extents the kernel takes first, `grid_extent(g, 0), grid_extent(g, 1)`. */
char *grid_extents(const Kernel *k, const char *grid) {
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
char *coarsened_block(const Kernel *k, const char *block, const char *site) {
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
int kernel_params(Kernel *k, Node **out, int max) {
  int n = 0;
  for (int i = 0; i < k->fn->nkid && n < max; i++)
    if (k->fn->kid[i]->kind == N_PARAM)
      out[n++] = k->fn->kid[i];
  return n;
}

/* The end (past the `;`) of a launch that is a statement of its own, or 0
 * after an error: the rewrites that need a block around it. */
unsigned launch_statement_end(Unit *u, Node *call, Kernel *k) {
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

char *callee_renamed(const char *callee, const char *name, const char *to) {
  const char *p = last_word(callee, name);
  return p ? arena_printf("%.*s%s%s", (int)(p - callee), callee, to, p + strlen(name)) : NULL;
}

/* Whether a callee naming the kernel through a qualifier (`ns::k`) names
 * it through the kernel's own namespaces, where a renamed kernel (-check's
 * original, -factor auto's variants) is declared beside it; `other::k`
 * through a using-declaration would not find those.  The namespaces come
 * from the kernel's USR (`c:@N@a@N@b@F@k#...`). */
bool callee_in_own_scope(const Kernel *k, const char *callee) {
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

/* "file.cu:LINE" of a launch, for the runtimes' messages. */
char *launch_site(const Source *src, unsigned off) {
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
unsigned skip_qualifier(const Source *src, unsigned off, unsigned end) {
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

/* Whether the kernel's declaration says `__launch_bounds__`: ptxas then
 * fits its registers to the threads it names. */
bool has_launch_bounds(const Source *src, const Kernel *k) {
  for (unsigned p = k->fn->begin; p + 17 <= k->fn->loc; p++)
    if (!strncmp(src->text + p, "__launch_bounds__", 17))
      return true;
  return false;
}

/* Whether the block extent `text` may be evaluated twice (once by the
 * prelude's check before the launch): names, numbers, operators that
 * write nothing, and `dim3(...)`; no other call, no `=`, `++` or `--`, no
 * comment. */
bool block_text_pure(const char *text) {
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

/* ... the condition itself, on the dim3 `block`. */
char *thread_serve_condition_of(const Kernel *k, const char *block) {
  int ds[3], f[3], n = launch_dims(k, ds, f);
  Buf b = {0};
  for (int i = 0; i < n; i++)
    buf_printf(&b, "%s::tfuse_rt::serves_block(%s, %d, %du, %s, __tf_fb)", i ? " && " : "", block, ds[i], f[i],
               k->whole_warps ? "true" : "false");
  char *t = arena_strdup(b.data);
  buf_free(&b);
  return t;
}

/* The test of block_serve_condition: the merged block's threads'
 * registers (threads: serves_threads, through the kernel's address addr)
 * and K shares of `__tf_dsmem` (shares: serves_shared, or
 * serves_shared_unnamed where addr is NULL); NULL where neither. */
char *fit_condition(const Kernel *k, const char *addr, const char *block, bool threads, bool shares) {
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
void fallback_record(Buf *b, const Kernel *k, const char *site) {
  buf_printf(b, "static ::tfuse_rt::Fallback __tf_fb(\"%s\", \"%s\"); ", k->sym->name, site);
}

/* A use of a kernel's name whose value is stored into a variable or
 * compared with one, through `&`, parentheses, casts and the arms of `?:`:
 * `p = &k;`, `void (*p)(float *) = c ? k : j;`, `p == &k`, a graph node's
 * `params.func = (void *)k`.  The stored value becomes the kept original's
 * address, so whatever launches through it (a graph's kernel node, a
 * cudaLaunchKernel of the pointer) runs the original on the configuration
 * it is given: correct by construction.  An argument (cudaFuncSetAttribute,
 * cudaLaunchKernel: kernel_apis) is none of these. */
bool is_address_use(const Node *n) {
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

/* The launch's configuration call (__cudaPushCallConfiguration). */
Node *launch_config(Node *call) { return call->nkid > 1 ? call->kid[1] : NULL; }

Node *enclosing_function(Node *n) {
  while (n && n->kind != N_FUNC)
    n = n->parent;
  return n;
}

/* Whether every use of `var` in `n` is a launch's configuration argument
 * (copied there, never written). */
bool only_read_by_launches(Node *n, Sym *var) {
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

const char *original_name(const Kernel *k) { return arena_printf("%s__tf_orig", k->sym->name); }
