/* macros: expands, in the text, the macro uses inside coarsened kernels
 * that hide a name tfuse must rewrite.
 *
 * Contract: requires the parsed unit (Unit.macros, Unit.macro_uses from
 * parse.c) and the chosen kernels; provides, for each file of the project
 * holding such uses, its text with them replaced by their expansion
 * (Project.texts).  The driver then parses the project again with those
 * texts in place of the files', so every later pass sees the names in the
 * kernel's own text, and each location still names its own file.
 *
 * tfuse rewrites source text: `blockIdx.x` spelled in a macro's body
 * (`#define IDX (blockIdx.x * blockDim.x + threadIdx.x)`) has no text at
 * its use to rewrite, and neither has a kernel variable named there. Such a
 * use is replaced by its expansion, as the preprocessor would make it:
 * parameters replaced by the (expanded) arguments, `__VA_ARGS__` by the
 * variable arguments, the result rescanned for further macros, a macro not
 * expanded inside itself. Tokens are joined by single spaces, which the
 * preprocessor's output would not merge either. A body with `#` or `##`, a
 * macro whose definition tfuse has not seen, or arguments that do not match
 * leave the use as it is (legality then refuses what it must, as before).
 * A use sees the macros of its own translation unit (input); a use in a
 * header is expanded once per input that includes it, and replaced only
 * when every input expands it to the same text.
 *
 *   int i = IDX;   ->   int i = (blockIdx.x * blockDim.x + threadIdx.x);
 *
 * So is a use whose expansion does not stay inside the expression it is
 * written in (a `;`, a brace or a top-level `,`: `#define C 0.7071f;` in
 * `y = x * C;`): fuse.c wraps expressions in guards (`ok ? (x * C) : 0`),
 * and the expansion's `;` would land inside the parentheses.  A use left
 * unexpanded (`#`, `##`) is named by macro_escaping_expression, and fuse.c
 * does not wrap the expression that holds it.
 */
#include "passes.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char **t;
  int n, cap;
} Toks;

static void push(Toks *o, char *t) {
  if (o->n == o->cap) {
    int cap = o->cap ? o->cap * 2 : 16;
    char **nt = arena_alloc(sizeof(char *) * (size_t)cap);
    if (o->n)
      memcpy(nt, o->t, sizeof(char *) * (size_t)o->n);
    o->t = nt;
    o->cap = cap;
  }
  o->t[o->n++] = t;
}

/* The one definition of a name in translation unit tu; *ambiguous when
 * there are several (a macro #undef'd and defined again: which one a nested
 * use sees depends on where it is, so tfuse does not guess). */
static Macro *find_macro(Unit *u, int tu, const char *name, bool *ambiguous) {
  Macro *found = NULL;
  *ambiguous = false;
  /* parse.c reads the translation units in turn: u->macros is by tu. */
  int lo = 0, hi = u->macros.len;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (((Macro *)u->macros.items[mid])->tu < tu)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (int i = lo; i < u->macros.len && ((Macro *)u->macros.items[i])->tu == tu; i++) {
    Macro *m = u->macros.items[i];
    if (!strcmp(m->name, name)) {
      if (found)
        *ambiguous = true;
      found = m;
    }
  }
  return found;
}

static bool is_ident(const char *t) { return t[0] == '_' || isalpha((unsigned char)t[0]); }

typedef struct {
  const char *names[64];
  int n;
} Hide;

static bool hidden(const Hide *h, const char *name) {
  for (int i = 0; i < h->n; i++)
    if (!strcmp(h->names[i], name))
      return true;
  return false;
}

/* An expansion under way: the macros, the kernel's variable names, and
 * whether a macro body (not an argument) named one of them or a builtin. */
typedef struct {
  Unit *u;
  int tu; /* the use's translation unit: the macros it sees */
  const Vec *names;
  bool needed;
  unsigned watch; /* a definition's Macro.def_at (~0u: none)... */
  bool watched;   /* ...that the expansion went through */
} MX;

static bool is_builtin_name(const char *t) {
  static const char *builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  for (size_t b = 0; b < sizeof builtins / sizeof *builtins; b++)
    if (!strcmp(t, builtins[b]))
      return true;
  return false;
}

static bool names_what_is_rewritten(const MX *x, const char *t) {
  if (is_builtin_name(t))
    return true;
  for (int j = 0; j < x->names->len; j++)
    if (!strcmp(t, x->names->items[j]))
      return true;
  return false;
}

static bool expand(MX *x, char **in, int n, Hide *hide, Toks *out, int depth);

/* The arguments of a function-like use starting at in[*i] == "(": their
 * token ranges, split at top-level commas. */
static bool collect_args(char **in, int n, int *i, int *ab, int *ae, int *nargs, int max) {
  int depth = 0, start = *i + 1;
  *nargs = 0;
  for (int j = *i; j < n; j++) {
    if (!strcmp(in[j], "(") || !strcmp(in[j], "[") || !strcmp(in[j], "{")) {
      depth++;
    } else if (!strcmp(in[j], ")") || !strcmp(in[j], "]") || !strcmp(in[j], "}")) {
      if (--depth == 0) {
        if (*nargs >= max)
          return false;
        ab[*nargs] = start;
        ae[(*nargs)++] = j;
        *i = j + 1;
        return true;
      }
    } else if (!strcmp(in[j], ",") && depth == 1) {
      if (*nargs >= max)
        return false;
      ab[*nargs] = start;
      ae[(*nargs)++] = j;
      start = j + 1;
    }
  }
  return false;
}

/* One use of m at in[*i] (its name); appends the expansion to out. */
static bool expand_use(MX *x, Macro *m, char **in, int n, int *i, Hide *hide, Toks *out, int depth) {
  x->watched |= m->def_at != ~0u && m->def_at == x->watch;
  for (int b = 0; b < m->nbody; b++)
    if (!strcmp(m->body[b], "#") || !strcmp(m->body[b], "##"))
      return false;
  Toks body = {0};
  int next = *i + 1;
  if (m->func_like) {
    if (next >= n || strcmp(in[next], "("))
      return false; /* the name alone is not a use */
    int ab[64], ae[64], nargs;
    if (!collect_args(in, n, &next, ab, ae, &nargs, 64))
      return false;
    if (nargs == 1 && ab[0] == ae[0] && m->nparams == 0)
      nargs = 0; /* `F()` */
    if (nargs < m->nparams || (nargs > m->nparams && !m->variadic))
      return false;
    for (int b = 0; b < m->nbody; b++) {
      const char *t = m->body[b];
      int p = -1;
      for (int q = 0; q < m->nparams; q++)
        if (!strcmp(m->params[q], t))
          p = q;
      if (p >= 0) {
        if (!expand(x, in + ab[p], ae[p] - ab[p], hide, &body, depth + 1))
          return false;
      } else if (!strcmp(t, "__VA_ARGS__") && m->variadic) {
        for (int a = m->nparams; a < nargs; a++) {
          if (a > m->nparams)
            push(&body, ",");
          if (!expand(x, in + ab[a], ae[a] - ab[a], hide, &body, depth + 1))
            return false;
        }
      } else {
        x->needed |= names_what_is_rewritten(x, t);
        push(&body, (char *)t);
      }
    }
  } else {
    for (int b = 0; b < m->nbody; b++) {
      x->needed |= names_what_is_rewritten(x, m->body[b]);
      push(&body, m->body[b]);
    }
  }
  if (hide->n >= 64)
    return false;
  hide->names[hide->n++] = m->name;
  bool ok = expand(x, body.t, body.n, hide, out, depth + 1);
  hide->n--;
  *i = next;
  return ok;
}

/* Expands in[0..n) into out, rescanning; false if any use cannot be. */
static bool expand(MX *x, char **in, int n, Hide *hide, Toks *out, int depth) {
  if (depth > 64)
    return false;
  for (int i = 0; i < n;) {
    bool ambiguous = false;
    Macro *m = is_ident(in[i]) && !hidden(hide, in[i]) ? find_macro(x->u, x->tu, in[i], &ambiguous) : NULL;
    if (ambiguous)
      return false;
    if (m && (!m->func_like || (i + 1 < n && !strcmp(in[i + 1], "(")))) {
      if (!expand_use(x, m, in, n, &i, hide, out, depth))
        return false;
      continue;
    }
    push(out, in[i++]);
  }
  return true;
}

static void kernel_names(Node *n, Vec *names) {
  if ((n->kind == N_VAR || n->kind == N_PARAM) && n->sym && n->sym->name)
    vec_push(names, n->sym->name);
  for (int i = 0; i < n->nkid; i++)
    kernel_names(n->kid[i], names);
}

typedef struct {
  unsigned begin, end;
  char *text;
} Repl;

static bool is_one_of(const char *t, const char *const *set) {
  for (; *set; set++)
    if (!strcmp(t, *set))
      return true;
  return false;
}

/* Whether two tokens may be written without a space between them and still
 * read as the same two tokens: around member access and brackets, which
 * makes `blockIdx.x` read as written. */
static bool glued(const char *a, const char *b) {
  static const char *const after[] = {"(", "[", ".", "->", "::", NULL};
  static const char *const before[] = {")", "]", ",", ";", NULL};
  static const char *const member[] = {".", "->", "::", NULL};
  if (is_one_of(a, after) || is_one_of(b, before))
    return true;
  bool a_ends_name = is_ident(a) || !strcmp(a, ")") || !strcmp(a, "]");
  return a_ends_name && (is_one_of(b, member) || (!strcmp(b, "[") || (is_ident(a) && !strcmp(b, "("))));
}

/* Whether a token names a macro of translation unit tu (which could hide anything). */
static bool find_macro_named(Unit *u, int tu, const char *t) {
  bool ambiguous;
  return is_ident(t) && find_macro(u, tu, t, &ambiguous) != NULL;
}

static bool is_coarsened_name(const char *t, Vec *kernels) {
  for (int k = 0; k < kernels->len; k++) {
    Kernel *kn = kernels->items[k];
    if (kn->p.factor != 1 && !strcmp(kn->sym->name, t))
      return true;
  }
  return false;
}

/* Whether tokens hold a coarsened kernel's name followed, within its
 * template arguments, by `<<<`. */
static bool launches_in(const Toks *t, Vec *kernels) {
  for (int i = 0; i < t->n; i++)
    if (is_coarsened_name(t->t[i], kernels))
      for (int j = i + 1; j < t->n && j < i + 32; j++) {
        if (!strcmp(t->t[j], "<<<"))
          return true;
        if (!strcmp(t->t[j], ";") || !strcmp(t->t[j], "("))
          break;
      }
  return false;
}

static int by_begin(const void *a, const void *b) {
  const Repl *x = *(Repl *const *)a, *y = *(Repl *const *)b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

/* A use in a header has one MacroUse per input that includes it: its
 * replacements (sorted, from repl[i]) stand only if every one of them has
 * one, all of the same text; else none does.  Returns the index after them. */
static int agree(Unit *u, Vec *repl, int i) {
  Repl *r = repl->items[i];
  int j = i + 1;
  bool same = true;
  for (; j < repl->len; j++) {
    Repl *o = repl->items[j];
    if (o->begin != r->begin || o->end != r->end)
      break;
    same &= !strcmp(o->text, r->text);
  }
  int uses = 0;
  for (int m = 0; m < u->macro_uses.len; m++) {
    MacroUse *mu = u->macro_uses.items[m];
    uses += mu->begin == r->begin && mu->end == r->end;
  }
  if (!same || uses != j - i)
    r->text = NULL;
  return j;
}

/* The whole expansion of one use into *out; *needed: a macro body (not an
 * argument) named one of `names` or a builtin; *watched (if not NULL): it
 * went through the definition whose name is at `watch`.  False if it cannot
 * be expanded. */
static bool expand_whole(Unit *u, MacroUse *mu, const Vec *names, Toks *out, bool *needed, unsigned watch,
                         bool *watched) {
  Hide hide = {0};
  MX x = {.u = u, .tu = mu->tu, .names = names, .watch = watch};
  int at = 0;
  bool ok = expand_use(&x, mu->macro, mu->tok, mu->ntok, &at, &hide, out, 0) && at == mu->ntok;
  *needed = x.needed;
  if (watched)
    *watched = x.watched;
  return ok;
}

/* Whether tokens, put where one expression stood, would not stay inside
 * it: a `;`, a brace or a `,` outside brackets, or brackets that do not
 * match (`#define C 0.7071f;` used in `x * C;`).  Wrapped in a guard
 * (`ok ? (x * C) : 0`) the expansion would end the statement inside the
 * parentheses. */
static bool escapes_expression(char **t, int n) {
  int depth = 0;
  for (int i = 0; i < n; i++) {
    if (!strcmp(t[i], ";") || !strcmp(t[i], "{") || !strcmp(t[i], "}") || (!strcmp(t[i], ",") && depth == 0))
      return true;
    if (!strcmp(t[i], "(") || !strcmp(t[i], "["))
      depth++;
    else if ((!strcmp(t[i], ")") || !strcmp(t[i], "]")) && --depth < 0)
      return true;
  }
  return depth != 0;
}

/* Records that the use's text becomes the expansion's tokens. */
static void add_replacement(Vec *repl, const MacroUse *mu, const Toks *out) {
  Buf b = {0};
  for (int t = 0; t < out->n; t++)
    buf_printf(&b, "%s%s", t && !glued(out->t[t - 1], out->t[t]) ? " " : "", out->t[t]);
  Repl *r = arena_alloc(sizeof *r);
  r->begin = mu->begin;
  r->end = mu->end;
  r->text = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  vec_push(repl, r);
}

bool macros_expand_kernels(Unit *u, Vec *kernels, Vec *texts) {
  Vec repl = {0};
  for (int k = 0; k < kernels->len; k++) {
    Kernel *kn = kernels->items[k];
    Node *body = kn->fn->sym->body;
    if (kn->p.factor <= 1 || !body || kn->fn->sym->arch_dependent)
      continue; /* arch_dependent: legality.c refuses it; expanded with the host's macros, its text would change */
    Vec names = {0};
    kernel_names(kn->fn, &names);
    for (int i = 0; i < u->macro_uses.len; i++) {
      MacroUse *mu = u->macro_uses.items[i];
      if (mu->begin < body->begin || mu->end > body->end)
        continue;
      bool inner = false; /* a use inside another's arguments goes with it */
      for (int j = 0; j < u->macro_uses.len && !inner; j++) {
        MacroUse *o = u->macro_uses.items[j];
        inner = o != mu && o->begin <= mu->begin && mu->end <= o->end && (o->end - o->begin) > (mu->end - mu->begin);
      }
      if (inner)
        continue;
      Toks out = {0};
      bool needed;
      if (!expand_whole(u, mu, &names, &out, &needed, ~0u, NULL))
        continue;
      /* A builtin in a macro's argument is out of reach too: clang reports
       * its location in the macro (blockIdx.x is a property access whose
       * cursor does not carry the argument's spelling). */
      for (int t = 0; t < out.n && !needed; t++)
        needed = is_builtin_name(out.t[t]);
      /* An expansion that does not stay inside its expression: its text
       * must be there for fuse.c to wrap the expression. */
      if (needed || escapes_expression(out.t, out.n))
        add_replacement(&repl, mu, &out);
    }
    vec_free(&names);
  }
  /* Host code: a use whose expansion launches a coarsened kernel
   * (`HANDLE_CASE(...)` around `k<<<g, b>>>(...)`) is expanded too, so the
   * launch has text of its own for launch.c to rewrite. */
  Vec knames = {0}; /* a launch spelled in a macro's argument needs no expansion: launch.c finds it there */
  for (int k = 0; k < kernels->len; k++)
    vec_push(&knames, ((Kernel *)kernels->items[k])->sym->name);
  for (int i = 0; i < u->macro_uses.len; i++) {
    MacroUse *mu = u->macro_uses.items[i];
    bool in_kernel = false;
    for (int k = 0; k < kernels->len && !in_kernel; k++) {
      Node *body = ((Kernel *)kernels->items[k])->fn->sym->body;
      in_kernel = body && body->begin <= mu->begin && mu->end <= body->end;
    }
    if (in_kernel)
      continue;
    /* A project's launch macro (`LAUNCH(k, n, args)` around
     * `kernel<<<...>>>(__VA_ARGS__)`): the kernel is an argument, the `<<<`
     * the body's, so the launch has no text of its own either. */
    bool chevrons_written = false;
    for (int t = 0; t < mu->ntok && !chevrons_written; t++)
      chevrons_written = !strcmp(mu->tok[t], "<<<");
    Toks out = {0};
    bool needed;
    if (expand_whole(u, mu, &knames, &out, &needed, ~0u, NULL) && (needed || !chevrons_written) &&
        launches_in(&out, kernels))
      add_replacement(&repl, mu, &out);
  }
  vec_free(&knames);
  if (repl.len == 0) {
    vec_free(&repl);
    return false;
  }
  qsort(repl.items, (size_t)repl.len, sizeof(void *), by_begin);
  Vec agreed = {0};
  for (int i = 0; i < repl.len;) {
    Repl *r = repl.items[i];
    i = agree(u, &repl, i);
    if (r->text)
      vec_push(&agreed, r);
  }
  /* Each file's new text, from the replacements that lie in it. */
  bool any = false;
  int at_repl = 0;
  const Source *whole = u->src;
  int nfiles = whole->parts.len ? whole->parts.len : 1;
  for (int f = 0; f < nfiles; f++) {
    const Source *file = whole->parts.len ? whole->parts.items[f] : whole;
    unsigned base = whole->parts.len ? file->base : 0;
    Buf b = {0};
    unsigned at = 0; /* in the file */
    bool changed = false;
    for (; at_repl < agreed.len; at_repl++) {
      Repl *r = agreed.items[at_repl];
      if (source_file_at(whole, r->begin) != file)
        break; /* the next file's */
      if (r->begin < base + at)
        continue;
      buf_add(&b, file->text + at, r->begin - base - at);
      buf_puts(&b, r->text);
      at = r->end - base;
      changed = true;
    }
    if (changed) {
      buf_add(&b, file->text + at, file->len - at);
      Source *t = arena_alloc(sizeof *t);
      const char *real = path_real(file->path);
      source_set_text(t, real ? real : file->path, b.data ? b.data : "", b.len);
      bool again = false; /* a file's newer text replaces the older */
      for (int i = 0; i < texts->len; i++)
        if (!strcmp(((Source *)texts->items[i])->path, t->path)) {
          texts->items[i] = t;
          again = true;
        }
      if (!again)
        vec_push(texts, t);
      any = true;
    }
    buf_free(&b);
  }
  vec_free(&agreed);
  vec_free(&repl);
  return any;
}

bool macro_uses_may_launch(Unit *u, Kernel *k, unsigned directive, unsigned at) {
  /* The macro the directive defines: its name is the directive's first. */
  Macro *d = NULL;
  for (int i = 0; i < u->macros.len && !d; i++) {
    Macro *m = u->macros.items[i];
    if (m->def_at != ~0u && directive < m->def_at && m->def_at <= at)
      d = m;
  }
  if (!d)
    return true;
  Vec none = {0};
  bool may = false;
  for (int i = 0; i < u->macro_uses.len && !may; i++) {
    MacroUse *mu = u->macro_uses.items[i];
    Toks out = {0};
    bool needed;
    if (expand_whole(u, mu, &none, &out, &needed, d->def_at, &may))
      continue; /* may: its expansion goes through d, whose body launches k */
    /* Not expanded: it may launch k if d's or k's name is anywhere near. */
    may = mu->macro->def_at == d->def_at;
    for (int b = 0; b < mu->macro->nbody && !may; b++)
      may = !strcmp(mu->macro->body[b], k->sym->name) || find_macro_named(u, mu->tu, mu->macro->body[b]);
    for (int t = 0; t < mu->ntok && !may; t++)
      may = !strcmp(mu->tok[t], k->sym->name) || !strcmp(mu->tok[t], d->name);
  }
  return may;
}

const char *macro_escaping_expression(Unit *u, unsigned b, unsigned e) {
  Vec none = {0};
  for (int i = 0; i < u->macro_uses.len; i++) {
    MacroUse *mu = u->macro_uses.items[i];
    if (mu->begin < b || mu->begin >= e)
      continue;
    Toks out = {0};
    bool needed;
    bool escapes = expand_whole(u, mu, &none, &out, &needed, ~0u, NULL)
                       ? escapes_expression(out.t, out.n)
                       : escapes_expression(mu->macro->body, mu->macro->nbody);
    if (escapes)
      return mu->macro->name;
  }
  return NULL;
}
