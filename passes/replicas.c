/* replicas: the layout of a block-mode kernel's replicated shared memory.
 *
 * Contract: requires uniform_analyze (Sym.varying, Sym.vmask of each
 * __shared__ variable) and legality_check on a block-mode kernel; fuse.c
 * calls plan_shared_probe and plan_interleave before it emits the body,
 * then asks here for the declarations and accesses of the replicas:
 *   - separate (the default): one array per copy, named by copy_name;
 *   - interleaved (-layout interleaved): the copies side by side in one
 *     array (Sym.ilv), below;
 *   - dynamic shared memory (`extern __shared__`): copy r's array points
 *     to its share, r * __tf_dsmem bytes in (dyn_shared_copies);
 *   - the 48 KB of static shared memory a block may declare: where the
 *     sizes depend on a template parameter, a static_assert the driver
 *     checks in the output (plan_shared_probe, verify.c).
 */
#include "fuse.h"

#include <string.h>

/* ---- interleaved replicas (-layout interleaved) ----
 *
 * Block mode replicates a shared array whose contents differ between the
 * logical blocks.  By default each copy gets its own array (`Bs_x0`,
 * `Bs_x1`...).  With -layout interleaved the n copies of
 * `__shared__ float Bs[16][16]` become one array
 * `__shared__ float __align__(16) Bs[n / W][16][16][W]`, W = 4 (or 2 where
 * n is not a multiple of 4), and copy i's `Bs[k][tx]` is
 * `Bs[i / W][k][tx][i % W]`: the copies' elements of one index lie side by
 * side, so that the copies' reads of a statement emitted per copy can be
 * one vector load (matmul 8x8 on the H200: 5.18 ms -> 4.13 ms).
 *
 * Only the address of an element changes, so an array is laid out so only
 * where every use of it names one element: the array subscripted as many
 * times as it has dimensions, neither the element's address taken nor a
 * reference bound to it.  Any other use (a pointer, `sizeof`, a macro, a
 * call that may take the element by reference) keeps the separate arrays,
 * with a remark under -report. */

/* The parent of *n past parentheses and implicit conversions, *n becoming
 * the outermost of those. */
static Node *skip_wrappers_up(Node **n) {
  Node *p = (*n)->parent;
  while (p && (p->kind == N_PAREN || p->kind == N_UNEXPOSED)) {
    *n = p;
    p = p->parent;
  }
  return p;
}

/* `A[i][j]` for the use `A` of an array of `rank` dimensions, or NULL. */
static Node *full_subscript(Node *ref, int rank) {
  Node *n = ref;
  for (int i = 0; i < rank; i++) {
    Node *p = skip_wrappers_up(&n);
    if (!p || p->kind != N_SUBSCRIPT || p->nkid < 2 || p->kid[0] != n)
      return NULL;
    n = p;
  }
  return n;
}

/* Why the use `ref` of array s keeps it in separate arrays, or NULL. */
static const char *interleave_use_problem(Fuse *F, Node *ref, const Sym *s) {
  const char *text = F->src->text;
  if (ref->in_macro)
    return "it is used inside a macro's expansion";
  Node *f = full_subscript(ref, s->rank);
  if (!f)
    return "it is used other than to name one element (as a pointer, or in sizeof)";
  if (f->in_macro)
    return "it is used inside a macro's expansion";
  for (Node *a = ref->parent; a; a = a->parent)
    if (a->kind == N_LAMBDA)
      return "it is used in a lambda (which may return a reference to its element)";
  Node *top = f, *p = skip_wrappers_up(&top);
  if (!p)
    return NULL;
  if (p->kind == N_UNOP && p->op == OP_ADDR)
    return "the address of its element is taken";
  if (p->kind == N_CAST && (!p->type_arith || memchr(text + p->begin, '&', top->begin - p->begin)))
    return "its element is cast to a reference or to a type other than a number";
  if (p->kind == N_VAR && p->sym && p->sym->is_reference)
    return "a reference binds to its element";
  if (p->kind == N_CALL) {
    Node *obj;
    bool obj_ptr;
    Vec args = {0};
    call_args(p, &obj, &obj_ptr, &args);
    int pos = -1;
    for (int i = 0; i < args.len; i++)
      if (args.items[i] == top)
        pos = i;
    vec_free(&args);
    if (pos < 0 || pos >= 32 || !p->sym || p->sym->kind != SYM_FUNC ||
        ((p->sym->byref_params | p->sym->dep_params) >> pos & 1))
      return "its element is passed to a call that may take it by reference";
  }
  return NULL;
}

static void first_problem(Fuse *F, Node *n, const Sym *s, Node **at, const char **why) {
  if (n->kind == N_DECL_REF && n->sym == s) {
    *why = interleave_use_problem(F, n, s);
    *at = n;
    if (*why)
      return;
  }
  for (int i = 0; i < n->nkid && !*why; i++)
    first_problem(F, n->kid[i], s, at, why);
}

/* The declaration statement that declares s alone, a statement of the
 * kernel's body itself (not nested: in a loop emitted once per copy, each
 * copy would declare the whole array). */
static Node *sole_decl(Fuse *F, Node *body, const Sym *s) {
  for (int i = 0; i < body->nkid; i++) {
    Node *n = body->kid[i];
    if (n->kind != N_DECL_STMT || n->nkid != 1 || n->kid[0]->kind != N_VAR || n->kid[0]->sym != s)
      continue;
    Node *v = n->kid[0];
    unsigned e = stmt_end(F->src, n);
    const char *t = F->src->text;
    for (unsigned j = v->end; j < e; j++)
      if (t[j] != ' ' && t[j] != '\t' && t[j] != '\n' && t[j] != ';')
        return NULL; /* an attribute or initializer after the declarator */
    if (v->in_macro || strncmp(t + v->loc, s->name, strlen(s->name)))
      return NULL; /* (the statement is "in a macro" when it starts with `__shared__`) */
    return n;
  }
  return NULL;
}

/* The end of the `[..]` groups that follow the name of v's declarator,
 * counting them in *groups: `pa[4]` of `int (*pa[4])[8]`, none of `F4 t`
 * (the dimensions of a typedef), where the copies' dimension goes. */
static unsigned name_dims_end(Fuse *F, Node *v, const Sym *s, int *groups) {
  const char *t = F->src->text;
  unsigned p = v->loc + (unsigned)strlen(s->name), end = p;
  *groups = 0;
  for (;;) {
    while (p < v->end && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n'))
      p++;
    if (p >= v->end || t[p] != '[')
      return end;
    int depth = 0;
    for (; p < v->end; p++) {
      depth += t[p] == '[' || t[p] == '(' ? 1 : t[p] == ']' || t[p] == ')' ? -1 : 0;
      if (!depth)
        break;
    }
    if (p >= v->end)
      return end;
    end = ++p;
    ++*groups;
  }
}

void plan_interleave(Fuse *F, Node *body, bool report) {
  if (F->k->p.layout != LAYOUT_INTERLEAVED || F->k->p.mode != MODE_BLOCK)
    return;
  Vec vars = {0};
  kernel_shared_vars(F->k->fn, &vars);
  for (int i = 0; i < vars.len; i++) {
    Sym *s = vars.items[i];
    s->ilv = 0;
    int n = ngroups(F, sym_dims(F, s));
    if (n < 2)
      continue;
    const char *why = NULL;
    Node *at = NULL;
    int groups = 0;
    if (s->is_extern)
      why = "it is dynamic shared memory (extern __shared__)";
    else if (!s->is_array || s->rank < 1 || !s->elem_scalar)
      why = "it is not an array of numbers or pointers";
    else if (n % 2)
      why = arena_printf("its %d copies do not group by 2 or 4", n);
    else if (!sole_decl(F, body, s))
      why = "it is not declared alone, in a statement of the kernel's body (not nested)";
    else if (name_dims_end(F, sole_decl(F, body, s)->kid[0], s, &groups), groups != s->rank)
      why = "its dimensions are not all written after its name (a type alias of an array)";
    else
      first_problem(F, body, s, &at, &why);
    unsigned off = at && why ? at->begin : s->decl_off;
    if (why) {
      if (report)
        remark_at(off, "-layout interleaved: shared array '%s' keeps one array per copy: %s", s->name, why);
      continue;
    }
    s->ilv = n % 4 == 0 ? 4 : 2;
    if (report)
      remark_at(off, "shared array '%s': its %d copies interleaved, %d side by side", s->name, n, s->ilv);
  }
  vec_free(&vars);
}

/* `__shared__ float __align__(16) Bs[n / W][16][16][W];` for the
 * declaration of an interleaved array; the copies' dimension [W] goes after
 * the array's own, inside the declarator: `int (*__align__(16) pa[n / W][4][W])[8];`. */
char *interleaved_decl(Fuse *F, Node *decl) {
  Node *v = decl->kid[0];
  Sym *s = v->sym;
  const char *t = F->src->text;
  unsigned name_end = v->loc + (unsigned)strlen(s->name);
  int groups;
  unsigned dims_end = name_dims_end(F, v, s, &groups);
  int n = ngroups(F, sym_dims(F, s));
  return arena_printf("%.*s__align__(16) %s[%d]%.*s[%d]%.*s;", (int)(v->loc - decl->begin), t + decl->begin, s->name,
                      n / s->ilv, (int)(dims_end - name_end), t + name_end, s->ilv, (int)(v->end - dims_end),
                      t + dims_end);
}

/* Copy c's `Bs[k][tx]` -> `Bs[g][k][tx][w]`. */
void interleaved_sites(Fuse *F, Node *ref, unsigned e, Copy c, Vec *sites) {
  Sym *s = ref->sym;
  Node *f = full_subscript(ref, s->rank);
  if (!f || f->end > e) {
    F->failed = true;
    error_at(ref->loc, "internal error: interleaved shared array '%s' in part of a subscript", s->name);
    return;
  }
  int i = group_index(F, sym_dims(F, s), c);
  add_site(sites, ref->loc, (unsigned)strlen(s->name), arena_printf("%s[%d]", s->name, i / s->ilv));
  add_site(sites, f->end, 0, arena_printf("[%d]", i % s->ilv));
}

/* Block mode, `extern __shared__ T a[];` replicated: the dynamic shared
 * memory of the merged block holds the K logical blocks' in turn, each
 * __tf_dsmem bytes (the launch passes the original size, rounded up to 16
 * bytes, and asks for K times it). Copy r's array is a pointer to its slice. */
char *dyn_shared_copies(Fuse *F, Sym *sh, const char *indent) {
  Buf b = {0};
  unsigned m = sym_dims(F, sh);
  for (int r = 0; r < ngroups(F, m); r++)
    buf_printf(&b, "%s%sdecltype(&%s[0]) const %s = (decltype(&%s[0]))((char *)%s + %d * (size_t)__tf_dsmem);",
               r ? "\n" : "", r ? indent : "", sh->name, copy_name(F, sh, group_at(F, m, r)), sh->name, sh->name, r);
  char *text = arena_strdup(b.data);
  buf_free(&b);
  return text;
}

bool is_dyn_replica(const Sym *s) { return s && s->kind == SYM_SHARED && s->is_extern && s->varying; }

/* Block mode: K copies of a shared array whose size clang cannot tell (it
 * depends on a template parameter) may pass the 48 KB of static shared
 * memory a block may declare, which only ptxas would notice, with no word
 * of where or why.  legality.c checks the sizes it knows; for the others a
 * static_assert after the last such declaration (or at the kernel's entry)
 * states the limit for every instantiation, and the driver parses the output once more to turn its
 * failure into a located refusal (verify.c).  Needs every such array
 * declared in the kernel's own body, where its type's spelling is valid. */
void plan_shared_probe(Fuse *F, Node *body) {
  if (F->k->p.mode != MODE_BLOCK)
    return;
  Vec vars = {0};
  kernel_shared_vars(F->k->fn, &vars);
  long long known = 0;
  bool replicated = false;
  Buf e = {0};
  Sym *anchor = NULL;
  for (int i = 0; i < vars.len; i++) {
    Sym *s = vars.items[i];
    if (s->is_extern)
      continue;
    replicated |= s->varying;
    int copies = params_shared_replicas(&F->k->p, s);
    if (s->bytes >= 0) {
      known += s->bytes * copies;
      continue;
    }
    if (!s->type_text || !(body->begin <= s->decl_off && s->decl_off < body->end)) {
      anchor = NULL; /* cannot be spelled here: left to ptxas */
      break;
    }
    if (copies > 1)
      buf_printf(&e, "%d * sizeof(%s) + ", copies, s->type_text);
    else
      buf_printf(&e, "sizeof(%s) + ", s->type_text);
    if (!anchor || s->decl_off > anchor->decl_off)
      anchor = s;
  }
  if (anchor && replicated) {
    F->probe_anchor = anchor;
    F->probe = arena_printf("static_assert(%s%lld <= 48 * 1024, \"tfuse-shared-limit: '%s' coarsened by %s declares "
                            "more than 48 KB of static __shared__ memory; use a smaller -factor\");",
                            e.data, known, F->k->sym->name, params_factor_text(&F->k->p));
    F->k->shared_probe = true;
  }
  buf_free(&e);
  vec_free(&vars);
}
