/* target: what the device compilation defines differently from the host
 * side that tfuse reads.
 *
 * Contract: requires, for each input whose files other than system headers
 * name the compilation target or a predefined macro the sides differ in
 * (target_tests), the ranges each side's preprocessor skipped, the
 * declarations each side saw and a comparison of the two sides' macro
 * definitions (TargetInput, filled by parse.c from a second, device-side
 * parse for sm_90, kept while the unit is); provides Sym.arch_dependent and
 * Sym.arch_name on the functions of the project's files, and on helpers
 * outside them as they are read (target_mark_external), that the host-side
 * reading may get wrong, and the set of names the target decides
 * (target_name), which macros.c does not expand.
 *
 * parse.c reads CUDA host-side.  Code under a condition on the target
 * (`#ifdef __CUDA_ARCH__`, `#if __CUDA_ARCH__ >= 800`) may be another on the
 * device: a macro, a helper or a specialization defined differently there
 * makes the host's reading of a kernel wrong, and a coarsened kernel would
 * then compute with the physical thread where the original used the logical
 * one.  So:
 *   - a target region is a range one side skips and the other compiles, or
 *     one both skip whose condition chain tests the target and which some
 *     architecture CUDA compiles for may take (its conditions evaluated
 *     with that __CUDA_ARCH__ and the other macros' definitions);
 *   - the target's names are those declared or #defined in a target region,
 *     and, transitively, every declaration of the project's files (function,
 *     class, variable, typedef, macro) whose text mentions one, but for a
 *     function the device cannot call (TargetDecl.host_only: a host
 *     wrapper that launches a kernel using one is read right, host-side);
 *   - a function of the project's files whose text overlaps a target region
 *     or mentions a target name is arch_dependent: legality.c refuses a
 *     kernel that is, or that calls one;
 *   - whatever a function's text reaches through macros (theirs in turn)
 *     and the project's declarations is compared side by side: a macro the
 *     two sides define differently (another file or place, or another text
 *     for a predefined one), whatever it is called, makes it arch_dependent
 *     too ("what a function reaches", below).
 * Names are compared as spelled (an `f` of another scope counts too): a
 * refusal too many, never a kernel read wrong.  Text a declaration holds in
 * `__launch_bounds__(...)` is left out: a hint to the compiler, not what a
 * thread computes.
 *
 *   #ifdef __CUDA_ARCH__                    LANE: a target name
 *   #define LANE threadIdx.x                lane_of: mentions LANE
 *   #else                                   k: calls lane_of, refused
 *   #define LANE 0
 *   #endif
 *   __device__ int lane_of() { return LANE; }
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* Where a comment that starts at t[i] ends (past it), or i if none does. */
static unsigned past_comment(const char *t, unsigned i, unsigned e) {
  if (t[i] != '/' || i + 1 >= e || (t[i + 1] != '/' && t[i + 1] != '*'))
    return i;
  bool line = t[i + 1] == '/';
  for (i += 2; i < e && !(line ? t[i] == '\n' : (t[i] == '*' && i + 1 < e && t[i + 1] == '/'));)
    i++;
  return line ? i : i + 2 <= e ? i + 2 : e;
}

/* The marks of text that tests the target: __CUDA_ARCH__ and its feature
 * macros, clang's __NVPTX__, <nv/target>'s and CCCL's. */
static const char *const target_marks[] = {"CUDA_ARCH", "__NVPTX__", "NV_IF_", "NV_IS_", "NV_PROVIDES_SM",
                                           "NV_DISPATCH_TARGET", "_CCCL_DEVICE_COMPILATION",
                                           "_CCCL_HOST_COMPILATION", "_CCCL_PTX_ARCH"};

bool target_text_tests(const char *t, unsigned b, unsigned e) {
  for (unsigned i = b; i < e;) {
    unsigned j = past_comment(t, i, e);
    if (j != i) {
      i = j;
      continue;
    }
    for (size_t m = 0; m < sizeof target_marks / sizeof *target_marks; m++) {
      size_t n = strlen(target_marks[m]);
      if (t[i] == target_marks[m][0] && i + n <= e && !strncmp(t + i, target_marks[m], n))
        return true;
    }
    i++;
  }
  return false;
}


/* ---- names: an open-addressing set of strings, each with where it is
 * defined ---- */

typedef struct {
  char **keys;
  unsigned *at;
  size_t cap, count;
} NameSet;

static size_t name_slot(const NameSet *s, const char *k) {
  size_t j = str_hash(k) & (s->cap - 1);
  while (s->keys[j] && strcmp(s->keys[j], k))
    j = (j + 1) & (s->cap - 1);
  return j;
}

static bool name_has(const NameSet *s, const char *k, unsigned *at) {
  if (!s || !s->cap)
    return false;
  size_t j = name_slot(s, k);
  if (s->keys[j] && at)
    *at = s->at[j];
  return s->keys[j] != NULL;
}

/* Adds k; false if it was there. */
static bool name_add(NameSet *s, const char *k, unsigned at) {
  if ((s->count + 1) * 2 > s->cap) {
    NameSet n = {calloc(s->cap ? s->cap * 2 : 64, sizeof(char *)), calloc(s->cap ? s->cap * 2 : 64, sizeof(unsigned)),
                 s->cap ? s->cap * 2 : 64, s->count};
    for (size_t i = 0; i < s->cap; i++)
      if (s->keys[i]) {
        size_t j = name_slot(&n, s->keys[i]);
        n.keys[j] = s->keys[i];
        n.at[j] = s->at[i];
      }
    free(s->keys);
    free(s->at);
    *s = n;
  }
  size_t j = name_slot(s, k);
  if (s->keys[j])
    return false;
  s->keys[j] = (char *)k;
  s->at[j] = at;
  s->count++;
  return true;
}

/* ---- text ---- */

static bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

/* The identifiers of t[b, e), in order (arena strings), without comments,
 * string and character literals, and the parenthesized arguments of
 * __launch_bounds__ and __maxnreg__. */
static void idents(const char *t, unsigned b, unsigned e, Vec *out, Vec *offs) {
  int skip_depth = -1, depth = 0; /* inside a hint's parentheses: the depth they opened at */
  bool after_hint = false;
  for (unsigned i = b; i < e;) {
    char c = t[i];
    if (past_comment(t, i, e) != i) {
      i = past_comment(t, i, e);
    } else if (c == '"' || c == '\'') {
      for (i++; i < e && t[i] != c && t[i] != '\n';)
        i += t[i] == '\\' ? 2 : 1;
      i++;
    } else if (ident_start(c) && (i == b || !ident_char(t[i - 1]))) {
      unsigned s = i;
      while (i < e && ident_char(t[i]))
        i++;
      if ((i - s == 17 && !strncmp(t + s, "__launch_bounds__", 17)) || (i - s == 11 && !strncmp(t + s, "__maxnreg__", 11)))
        after_hint = true;
      else if (skip_depth < 0) {
        vec_push(out, arena_strndup(t + s, i - s));
        if (offs)
          vec_push(offs, (void *)(uintptr_t)s);
      }
    } else {
      if (c == '(') {
        if (after_hint && skip_depth < 0)
          skip_depth = depth;
        depth++;
      } else if (c == ')') {
        depth--;
        if (depth == skip_depth)
          skip_depth = -1;
      }
      if (c != ' ' && c != '\t' && c != '\n' && c != '(')
        after_hint = false;
      i++;
    }
  }
}

static bool in_spans(const Vec *spans, unsigned off) {
  for (int i = 0; i < spans->len; i++) {
    const unsigned *r = spans->items[i];
    if (r[0] <= off && off < r[1])
      return true;
  }
  return false;
}

static bool overlaps(const Vec *spans, unsigned b, unsigned e) {
  for (int i = 0; i < spans->len; i++) {
    const unsigned *r = spans->items[i];
    if (r[0] < e && b < r[1])
      return true;
  }
  return false;
}

/* The start of the line holding off, and the end of the logical line
 * (backslash continuations included) that starts at ls. */
static unsigned line_begin(const char *t, unsigned lo, unsigned off) {
  while (off > lo && t[off - 1] != '\n')
    off--;
  return off;
}

static unsigned line_end(const char *t, unsigned hi, unsigned ls) {
  unsigned i = ls;
  while (i < hi && (t[i] != '\n' || (i > ls && t[i - 1] == '\\')))
    i++;
  return i;
}

/* The directive the line at ls holds (`if`, `ifdef`, `elif`, `define`...),
 * its keyword's end in *kw; NULL if it is no directive. */
static const char *directive_of(const char *t, unsigned hi, unsigned ls, unsigned *kw) {
  unsigned p = ls;
  while (p < hi && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= hi || t[p] != '#')
    return NULL;
  for (p++; p < hi && (t[p] == ' ' || t[p] == '\t');)
    p++;
  unsigned s = p;
  while (p < hi && ident_char(t[p]))
    p++;
  *kw = p;
  static const char *const names[] = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif", "define"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (p - s == strlen(names[i]) && !strncmp(t + s, names[i], p - s))
      return names[i];
  return "";
}

static bool opens(const char *d) { return d && (!strcmp(d, "if") || !strcmp(d, "ifdef") || !strcmp(d, "ifndef")); }
static bool continues(const char *d) {
  return d && (!strcmp(d, "elif") || !strcmp(d, "elifdef") || !strcmp(d, "elifndef") || !strcmp(d, "else"));
}

/* The condition chain that governs off in the file [lo, hi): the lines of
 * the `#if`, `#elif` and `#else` of the innermost group holding off, up to
 * the branch off is in (line starts, the branch's own last); false if off
 * is in no group.  Complete groups before off are stepped over. */
static bool governing_chain(const char *t, unsigned lo, unsigned hi, unsigned off, Vec *chain) {
  int depth = 0;
  unsigned ls = line_begin(t, lo, off);
  for (;;) {
    unsigned kw;
    const char *d = directive_of(t, hi, ls, &kw);
    if (d && !strcmp(d, "endif") && ls < line_begin(t, lo, off))
      depth++;
    else if (depth > 0 && opens(d))
      depth--;
    else if (depth == 0 && (opens(d) || continues(d))) {
      vec_push(chain, (void *)(uintptr_t)ls);
      if (opens(d))
        return true;
    }
    if (ls <= lo)
      return false;
    ls = line_begin(t, lo, ls - 1);
  }
}

/* ---- conditions: a preprocessor expression evaluated for each target ----
 *
 * A range both sides skip may still be compiled for another architecture.
 * Its chain of conditions is evaluated with __CUDA_ARCH__ at each
 * architecture CUDA 13 compiles for, the other macros at their definitions
 * (TargetInput.macro_body: a macro defined once, object-like; any other is
 * unknown), and an unknown value propagating (`0 && ?` is 0, `1 || ?` is
 * 1).  Only a range no architecture can take is left out. */

enum { UNKNOWN = 0x7fffffff };

typedef struct {
  char **tok;
  int n, i;
  int arch;           /* __CUDA_ARCH__'s value, 0: the host (undefined) */
  const TargetInput *in;
  const NameSet *names; /* the target's names so far: unknown values */
  int depth;          /* macro expansion depth */
  int nest;           /* operand nesting: past 200, unknown (no deep recursion on any input) */
} Cond;

/* The tokens of a condition's text: identifiers, numbers, operators. */
static void cond_tokens(const char *t, unsigned b, unsigned e, Vec *out) {
  for (unsigned i = b; i < e;) {
    char c = t[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      i++;
    } else if (past_comment(t, i, e) != i) {
      i = past_comment(t, i, e);
    } else if (ident_char(c)) {
      unsigned s = i;
      while (i < e && ident_char(t[i]))
        i++;
      vec_push(out, arena_strndup(t + s, i - s));
    } else {
      static const char *const two[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"};
      unsigned n = 1;
      for (size_t k = 0; k < sizeof two / sizeof *two; k++)
        if (i + 1 < e && t[i] == two[k][0] && t[i + 1] == two[k][1])
          n = 2;
      vec_push(out, arena_strndup(t + i, n));
      i += n;
    }
  }
}

static long long cond_expr(Cond *c);

static const char *cond_peek(Cond *c) { return c->i < c->n ? c->tok[c->i] : ""; }

static bool cond_take(Cond *c, const char *op) {
  if (strcmp(cond_peek(c), op))
    return false;
  c->i++;
  return true;
}

/* Whether name is one the target decides by itself. */
static bool target_macro(const char *name) {
  return !strncmp(name, "__CUDA_ARCH", 11) || !strcmp(name, "__NVPTX__") || !strncmp(name, "_CCCL_", 6) ||
         !strncmp(name, "NV_", 3) || !strncmp(name, "_NV_", 4) || !strncmp(name, "__NV_", 5);
}

/* defined(name) at c's target: 1, 0, or UNKNOWN. */
static long long cond_defined(Cond *c, const char *name) {
  if (!strcmp(name, "__CUDA_ARCH__") || !strcmp(name, "__NVPTX__"))
    return c->arch != 0;
  if (target_macro(name) || name_has(c->names, name, NULL))
    return UNKNOWN;
  int kind = c->in->macro_body ? c->in->macro_body(c->in->macro_ctx, name, NULL) : -1;
  return kind < 0 ? UNKNOWN : kind > 0;
}

/* An identifier's value: a macro's, expanded, else 0. */
static long long cond_ident(Cond *c, const char *name) {
  if (!strcmp(name, "__CUDA_ARCH__"))
    return c->arch; /* undefined on the host: 0, as the preprocessor reads it */
  if (!strcmp(name, "__NVPTX__"))
    return c->arch != 0;
  if (target_macro(name) || name_has(c->names, name, NULL) || !c->in->macro_body || c->depth > 16)
    return UNKNOWN;
  Vec body = {0};
  int kind = c->in->macro_body(c->in->macro_ctx, name, &body);
  long long v;
  if (kind == 0) {
    v = 0; /* no macro of that name */
  } else if (kind < 0 || !body.len) {
    v = kind < 0 ? UNKNOWN : 0;
  } else {
    Cond sub = {(char **)body.items, body.len, 0, c->arch, c->in, c->names, c->depth + 1, c->nest};
    v = cond_expr(&sub);
    if (sub.i != sub.n)
      v = UNKNOWN;
  }
  vec_free(&body);
  return v;
}

static long long cond_operand(Cond *c);

static long long cond_primary(Cond *c) {
  if (c->nest > 200) {
    c->i = c->n;
    return UNKNOWN;
  }
  c->nest++;
  long long v = cond_operand(c);
  c->nest--;
  return v;
}

static long long cond_operand(Cond *c) {
  const char *t = cond_peek(c);
  if (cond_take(c, "(")) {
    long long v = cond_expr(c);
    return cond_take(c, ")") ? v : UNKNOWN;
  }
  if (cond_take(c, "!")) {
    long long v = cond_primary(c);
    return v == UNKNOWN ? UNKNOWN : !v;
  }
  if (cond_take(c, "-")) {
    long long v = cond_primary(c);
    return v == UNKNOWN ? UNKNOWN : -v;
  }
  if (cond_take(c, "+"))
    return cond_primary(c);
  if (cond_take(c, "~")) {
    long long v = cond_primary(c);
    return v == UNKNOWN ? UNKNOWN : ~v;
  }
  if (!strcmp(t, "defined")) {
    c->i++;
    bool paren = cond_take(c, "(");
    const char *name = cond_peek(c);
    if (!ident_start(name[0]))
      return UNKNOWN;
    c->i++;
    if (paren && !cond_take(c, ")"))
      return UNKNOWN;
    return cond_defined(c, name);
  }
  if (t[0] >= '0' && t[0] <= '9') {
    c->i++;
    char *end;
    long long v = strtoll(t, &end, 0);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
      end++;
    return *end ? UNKNOWN : v;
  }
  if (ident_start(t[0])) {
    c->i++;
    if (!strcmp(cond_peek(c), "("))
      return UNKNOWN; /* a function-like macro */
    return cond_ident(c, t);
  }
  c->i = c->n; /* what this evaluator does not read */
  return UNKNOWN;
}

/* Binary operators by precedence, lowest first; `?:` aside (unknown). */
static long long cond_binary(Cond *c, int level) {
  static const char *const ops[][4] = {{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="},
                                       {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
  if (level == (int)(sizeof ops / sizeof *ops))
    return cond_primary(c);
  long long v = cond_binary(c, level + 1);
  for (;;) {
    const char *op = NULL;
    for (int k = 0; k < 4 && ops[level][k] && !op; k++)
      if (!strcmp(cond_peek(c), ops[level][k]))
        op = ops[level][k];
    if (!op)
      return v;
    c->i++;
    long long w = cond_binary(c, level + 1);
    if (!strcmp(op, "&&"))
      v = (v == 0 || w == 0) ? 0 : (v == UNKNOWN || w == UNKNOWN) ? UNKNOWN : 1;
    else if (!strcmp(op, "||"))
      v = ((v != UNKNOWN && v) || (w != UNKNOWN && w)) ? 1 : (v == UNKNOWN || w == UNKNOWN) ? UNKNOWN : 0;
    else if (v == UNKNOWN || w == UNKNOWN)
      v = UNKNOWN;
    else if (!strcmp(op, "|")) v |= w;
    else if (!strcmp(op, "^")) v ^= w;
    else if (!strcmp(op, "&")) v &= w;
    else if (!strcmp(op, "==")) v = v == w;
    else if (!strcmp(op, "!=")) v = v != w;
    else if (!strcmp(op, "<")) v = v < w;
    else if (!strcmp(op, ">")) v = v > w;
    else if (!strcmp(op, "<=")) v = v <= w;
    else if (!strcmp(op, ">=")) v = v >= w;
    else if (!strcmp(op, "<<")) v = (w >= 0 && w < 63) ? v << w : UNKNOWN;
    else if (!strcmp(op, ">>")) v = (w >= 0 && w < 63) ? v >> w : UNKNOWN;
    else if (!strcmp(op, "+")) v += w;
    else if (!strcmp(op, "-")) v -= w;
    else if (!strcmp(op, "*")) v *= w;
    else v = w == 0 ? UNKNOWN : !strcmp(op, "/") ? v / w : v % w;
  }
}

static long long cond_expr(Cond *c) {
  long long v = cond_binary(c, 0);
  if (!strcmp(cond_peek(c), "?")) {
    c->i = c->n;
    return UNKNOWN;
  }
  return v;
}

/* The value of the condition of the directive at ls for arch: 1, 0 or
 * UNKNOWN (`#else`: 1). */
static long long cond_of(const char *t, unsigned hi, unsigned ls, int arch, const TargetInput *in,
                         const NameSet *names) {
  unsigned kw;
  const char *d = directive_of(t, hi, ls, &kw);
  if (!d || !strcmp(d, "else"))
    return 1;
  Vec toks = {0};
  cond_tokens(t, kw, line_end(t, hi, ls), &toks);
  long long v;
  if (!strcmp(d, "ifdef") || !strcmp(d, "elifdef") || !strcmp(d, "ifndef") || !strcmp(d, "elifndef")) {
    Cond c = {(char **)toks.items, toks.len, 0, arch, in, names, 0, 0};
    v = toks.len == 1 ? cond_defined(&c, toks.items[0]) : UNKNOWN;
    if (v != UNKNOWN && strstr(d, "ndef"))
      v = !v;
  } else {
    Cond c = {(char **)toks.items, toks.len, 0, arch, in, names, 0, 0};
    v = cond_expr(&c);
    if (c.i != c.n)
      v = UNKNOWN;
  }
  vec_free(&toks);
  return v == UNKNOWN ? UNKNOWN : v != 0;
}

/* Whether some architecture may compile the branch whose chain is `chain`
 * (its own directive first, the `#if` last): every earlier condition false
 * and its own true, or unknown. */
static bool branch_compiled_somewhere(const char *t, unsigned hi, const Vec *chain, const TargetInput *in,
                                      const NameSet *names) {
  static const int archs[] = {750, 800, 860, 870, 880, 890, 900, 1000, 1030, 1100, 1200, 1210};
  for (size_t a = 0; a < sizeof archs / sizeof *archs; a++) {
    long long own = cond_of(t, hi, (unsigned)(uintptr_t)chain->items[0], archs[a], in, names);
    bool maybe = own != 0;
    for (int k = 1; k < chain->len && maybe; k++)
      maybe = cond_of(t, hi, (unsigned)(uintptr_t)chain->items[k], archs[a], in, names) != 1;
    if (maybe)
      return true;
  }
  return false;
}

static bool is_keyword(const char *s) {
  static const char *const kw[] = {"if", "else", "for", "while", "do", "switch", "case", "default", "return",
                                   "break", "continue", "goto", "sizeof", "alignof", "decltype", "template",
                                   "typename", "operator", "const", "constexpr", "static", "inline", "extern",
                                   "volatile", "unsigned", "signed", "int", "long", "short", "char", "float",
                                   "double", "void", "bool", "auto", "struct", "class", "union", "enum",
                                   "typedef", "using", "namespace", "public", "private", "protected",
                                   "__device__", "__host__", "__global__", "__forceinline__", "__noinline__",
                                   "__shared__", "__constant__", "__restrict__", "static_assert", "new",
                                   "delete", "this", "true", "false", "nullptr", "defined", "define", "include"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (!strcmp(s, kw[i]))
      return true;
  return false;
}

/* The names text that no parse saw (both sides skipped it) may declare:
 * `#define X`, and at its outermost braces an identifier before `(`, `<`,
 * `=`, `;`, `[` or `{`, or after struct, class, union, enum, typedef,
 * using, namespace. */
static void declared_in_text(const char *t, unsigned b, unsigned e, NameSet *out) {
  int depth = 0;
  bool after_tag = false;
  for (unsigned i = b; i < e;) {
    char c = t[i];
    if (past_comment(t, i, e) != i) {
      i = past_comment(t, i, e);
    } else if (c == '#') {
      unsigned kw;
      const char *d = directive_of(t, e, line_begin(t, b, i), &kw);
      unsigned p = kw;
      while (p < e && (t[p] == ' ' || t[p] == '\t'))
        p++;
      unsigned s = p;
      while (p < e && ident_char(t[p]))
        p++;
      if (d && !strcmp(d, "define") && p > s)
        name_add(out, arena_strndup(t + s, p - s), s);
      i = line_end(t, e, line_begin(t, b, i));
    } else if (c == '{' || c == '}') {
      depth += c == '{' ? 1 : -1;
      if (depth < 0)
        depth = 0;
      i++;
    } else if (ident_start(c) && (i == b || !ident_char(t[i - 1]))) {
      unsigned s = i;
      while (i < e && ident_char(t[i]))
        i++;
      char *id = arena_strndup(t + s, i - s);
      unsigned p = i;
      while (p < e && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n'))
        p++;
      char nx = p < e ? t[p] : 0;
      bool tag = !strcmp(id, "struct") || !strcmp(id, "class") || !strcmp(id, "union") || !strcmp(id, "enum") ||
                 !strcmp(id, "typedef") || !strcmp(id, "using") || !strcmp(id, "namespace");
      if (depth == 0 && !is_keyword(id) &&
          (after_tag || nx == '(' || nx == '<' || nx == '=' || nx == ';' || nx == '[' || nx == '{'))
        name_add(out, id, s);
      after_tag = tag;
    } else {
      if (c != ' ' && c != '\t' && c != '\n')
        after_tag = false;
      i++;
    }
  }
}

/* ---- the pass ---- */

/* What the two sides' predefined macros differ in besides the target
 * marks (clang's x86-64 host and NVPTX device: the device's `long double` is
 * a double, its alignment 8, no errno, no PIC), and <cfloat>'s names for
 * the first. */
static const char *const predefined_marks[] = {"LDBL_", "__SIZEOF_LONG_DOUBLE__", "__BIGGEST_ALIGNMENT__",
                                               "__BITINT_MAXWIDTH__", "__NO_MATH_ERRNO__", "__PIC__", "__PIE__",
                                               "__pic__", "__pie__", "__code_model", "__cpp_threadsafe_static_init"};

bool target_tests(const char *t, size_t len) {
  if (target_text_tests(t, 0, (unsigned)len))
    return true;
  for (unsigned i = 0; i < len;) {
    unsigned j = past_comment(t, i, (unsigned)len);
    if (j != i) {
      i = j;
      continue;
    }
    for (size_t m = 0; m < sizeof predefined_marks / sizeof *predefined_marks; m++) {
      size_t n = strlen(predefined_marks[m]);
      if (t[i] == predefined_marks[m][0] && i + n <= len && !strncmp(t + i, predefined_marks[m], n))
        return true;
    }
    i++;
  }
  return false;
}


/* The skipped ranges of one side minus those of the other: where only the
 * other compiles, one range each. */
static void only_in(const Vec *a, const Vec *b, Vec *out) {
  for (int i = 0; i < a->len; i++) {
    const unsigned *r = a->items[i];
    unsigned p = r[0];
    while (p < r[1]) {
      /* the first range of b that covers p, or the first after it */
      unsigned next = r[1];
      bool covered = false;
      for (int j = 0; j < b->len; j++) {
        const unsigned *s = b->items[j];
        if (s[0] <= p && p < s[1]) {
          covered = true;
          p = s[1];
          break;
        }
        if (s[0] > p && s[0] < next)
          next = s[0];
      }
      if (covered)
        continue;
      unsigned *piece = arena_alloc(2 * sizeof *piece);
      piece[0] = p;
      piece[1] = next;
      vec_push(out, piece);
      p = next;
    }
  }
}

/* The target names and regions (above): Sym.arch_dependent through what
 * one side declares that the other does not. */
static void names_mark(Unit *u, Vec *inputs) {
  const Source *src = u->src;
  const char *t = src->text;
  NameSet *names = calloc(1, sizeof *names);
  Vec regions = {0}; /* unsigned[2]: the target regions, all inputs */
  for (int i = 0; i < inputs->len; i++) {
    TargetInput *in = inputs->items[i];
    Vec host_only = {0}, device_only = {0}, both = {0};
    if (in->device_failed) {
      /* Without the device's reading every range the host skipped may
       * be the device's code. */
      for (int j = 0; j < in->host_skipped.len; j++)
        vec_push(&device_only, in->host_skipped.items[j]);
    } else {
      only_in(&in->host_skipped, &in->device_skipped, &device_only);
      only_in(&in->device_skipped, &in->host_skipped, &host_only);
      /* Both skipped: host ranges minus the device-only pieces. */
      only_in(&in->host_skipped, &device_only, &both);
    }
    for (int s = 1; s >= 0; s--) { /* the device's definition named first */
      Vec *decls = s ? &in->device_decls : &in->host_decls;
      Vec *where = s ? &device_only : &host_only;
      for (int j = 0; j < decls->len; j++) {
        TargetDecl *d = decls->items[j];
        if (d->at == ~0u || in_spans(where, d->at)) /* ~0u: in a header only this side includes */
          name_add(names, d->name, d->at);
      }
    }
    for (int j = 0; j < host_only.len; j++)
      vec_push(&regions, host_only.items[j]);
    for (int j = 0; j < device_only.len; j++) {
      vec_push(&regions, device_only.items[j]);
      if (in->device_failed) {
        const unsigned *r = device_only.items[j];
        declared_in_text(t, r[0], r[1], names);
      }
    }
    /* Both skipped: the target's if a condition of its chain tests the
     * target and its own does not rule it out. */
    for (int j = 0; j < both.len; j++) {
      const unsigned *r = both.items[j];
      const Source *f = source_file_at(src, r[0]);
      unsigned lo = f->base, hi = f->base + (unsigned)f->len;
      Vec chain = {0};
      unsigned probe = r[0];
      while (probe < r[1] && (t[probe] == ' ' || t[probe] == '\t' || t[probe] == '\n'))
        probe++;
      if (probe < r[1] && governing_chain(t, lo, hi, probe, &chain)) {
        bool marked = false;
        for (int c = 0; c < chain.len && !marked; c++) {
          unsigned ls = (unsigned)(uintptr_t)chain.items[c];
          marked = target_text_tests(t, ls, line_end(t, hi, ls));
          Vec ids = {0};
          idents(t, ls, line_end(t, hi, ls), &ids, NULL);
          for (int k = 0; k < ids.len && !marked; k++)
            marked = name_has(names, ids.items[k], NULL);
          vec_free(&ids);
        }
        if (marked && branch_compiled_somewhere(t, hi, &chain, in, names)) {
          vec_push(&regions, (void *)r);
          declared_in_text(t, r[0], r[1], names);
        }
      }
      vec_free(&chain);
    }
    vec_free(&host_only);
    vec_free(&device_only);
    vec_free(&both);
  }
  /* The closure: a declaration that mentions a target name, or overlaps a
   * region, is the target's too.  Each declaration's identifiers once; an
   * index from identifier to the declarations that mention it; a worklist
   * of names. */
  Vec decls = {0}; /* TargetDecl*: every input's host declarations, and the project's macros */
  for (int i = 0; i < inputs->len; i++) {
    TargetInput *in = inputs->items[i];
    for (int j = 0; j < in->host_decls.len; j++)
      vec_push(&decls, in->host_decls.items[j]);
  }
  /* A macro of the project's files whose body tests the target
   * (`NV_IF_TARGET(NV_IS_DEVICE, ...)`, `__CUDA_ARCH__`) is the target's,
   * with or without a directive that tests it. */
  for (int i = 0; i < u->macros.len; i++) {
    const Macro *m = u->macros.items[i];
    if (m->def_at == ~0u || m->def_at >= src->len)
      continue;
    const Source *f = source_file_at(src, m->def_at);
    TargetDecl *d = arena_alloc(sizeof *d);
    d->name = m->name;
    d->at = d->begin = m->def_at;
    d->end = line_end(t, f->base + (unsigned)f->len, line_begin(t, f->base, m->def_at));
    d->macro = true;
    vec_push(&decls, d);
    if (target_text_tests(t, d->begin, d->end))
      name_add(names, d->name, d->at);
  }
  if (!names->count && !regions.len) { /* nothing the target decides */
    vec_free(&decls);
    free(names);
    return;
  }
  NameSet index = {0}; /* identifier -> 1 + its slot in `users` */
  Vec users = {0};     /* Vec* per identifier: indices into decls */
  Vec work = {0};      /* char*: target names not yet followed */
  for (size_t j = 0; j < names->cap; j++)
    if (names->keys[j])
      vec_push(&work, names->keys[j]);
  for (int j = 0; j < decls.len; j++) {
    TargetDecl *d = decls.items[j];
    if (overlaps(&regions, d->begin, d->end) && name_add(names, d->name, d->at)) {
      vec_push(&work, d->name);
      continue;
    }
    if (d->host_only)
      continue; /* device code cannot call it: its mentions reach no kernel */
    Vec ids = {0};
    idents(t, d->begin, d->end, &ids, NULL);
    for (int k = 0; k < ids.len; k++) {
      unsigned slot;
      if (!name_has(&index, ids.items[k], &slot)) {
        vec_push(&users, calloc(1, sizeof(Vec)));
        slot = (unsigned)users.len;
        name_add(&index, ids.items[k], slot);
      }
      Vec *us = users.items[slot - 1];
      if (!us->len || us->items[us->len - 1] != (void *)(intptr_t)j)
        vec_push(us, (void *)(intptr_t)j);
    }
    vec_free(&ids);
  }
  while (work.len) {
    const char *n = work.items[--work.len];
    unsigned slot;
    if (!name_has(&index, n, &slot))
      continue;
    Vec *us = users.items[slot - 1];
    for (int k = 0; k < us->len; k++) {
      TargetDecl *d = decls.items[(intptr_t)us->items[k]];
      if (name_add(names, d->name, d->at))
        vec_push(&work, d->name);
    }
  }
  /* The functions: their own text (a function of a class whose other
   * member is the target's stays readable). */
  for (int i = 0; i < u->functions.len; i++) {
    Node *fn = u->functions.items[i];
    Sym *s = fn->sym;
    if (!s || s->arch_dependent)
      continue;
    if (overlaps(&regions, fn->begin, fn->end)) {
      s->arch_dependent = true;
      continue;
    }
    Vec ids = {0}, offs = {0};
    idents(t, fn->begin, fn->end, &ids, &offs);
    for (int k = 0; k < ids.len && !s->arch_dependent; k++) {
      unsigned at;
      if (strcmp(ids.items[k], s->name) && name_has(names, ids.items[k], &at)) {
        s->arch_dependent = true;
        s->arch_name = ids.items[k];
        s->arch_at = at;
        s->arch_use = (unsigned)(uintptr_t)offs.items[k];
      }
    }
    vec_free(&ids);
    vec_free(&offs);
  }
  for (int i = 0; i < users.len; i++) {
    vec_free(users.items[i]);
    free(users.items[i]);
  }
  vec_free(&users);
  vec_free(&work);
  vec_free(&decls);
  vec_free(&regions);
  free(index.keys);
  free(index.at);
  u->target = names;
}

/* ---- what a function reaches, side by side ----
 *
 * A function's text is the same on both sides (a range one side skips in
 * it is a region, above); what the preprocessor makes of it is not where a
 * macro it expands, or one that macro's text expands in turn, is defined
 * differently (`#define APP_ARCH __CUDA_ARCH__`, `#if APP_ARCH >= 800`
 * defining GID one way and `#else` another: GID's definitions differ; an
 * alias of an alias: the innermost differs).  So every identifier of the
 * function's text is followed: a macro to its replacement lists (the
 * host's), a declaration of the project's files other than a function (a
 * variable, a type: its text) to its identifiers; a macro the two sides
 * define differently (by file, place and text: TargetInput.macro_differs)
 * makes the function arch_dependent, naming the identifier of its text
 * that reaches it.  Whatever the macros are called: no list of names.  A
 * macro the function does not reach is never compared. */

typedef struct {
  const char *via;   /* the macro the two sides define differently */
  unsigned at;       /* where the name followed is defined: a project offset, else ~0u */
  const char *where; /* ... as "path:line" where at is ~0u, or NULL */
} Differs;

typedef struct {
  const Unit *u;
  Vec *inputs;       /* TargetInput*, those with a device-side parse */
  NameSet same;      /* names whose reach is the same on both sides */
  NameSet differs;   /* names whose reach is not: 1 + their slot in info */
  Vec info;          /* Differs* */
  Vec active;        /* char*: the names being followed (a cycle reads as the same, for now) */
  NameSet decl_index; /* name -> 1 + its slot in decls */
  Vec decls;         /* Vec* of TargetDecl*, per name */
  bool failed;       /* a device-side parse failed */
} Reach;

static bool reach_active(const Reach *r, const char *name) {
  for (int i = 0; i < r->active.len; i++)
    if (!strcmp(r->active.items[i], name))
      return true;
  return false;
}

static int reach_name(Reach *r, const char *name, Differs **out);

/* Records that name's reach differs, through what `via` says. */
static int reach_differs(Reach *r, const char *name, const char *via, unsigned at, const char *where,
                         Differs **out) {
  Differs *d = arena_alloc(sizeof *d);
  d->via = via;
  d->at = at;
  d->where = where;
  vec_push(&r->info, d);
  name_add(&r->differs, name, (unsigned)r->info.len);
  *out = d;
  return 1;
}

/* Follows the identifiers of t[b, e) (but own); 1 if one reaches what the
 * sides define differently (*out: through what), 2 if one met a name still
 * being followed, else 0. */
static int reach_text(Reach *r, const char *t, unsigned b, unsigned e, const char *own, Differs **out) {
  Vec ids = {0};
  idents(t, b, e, &ids, NULL);
  int res = 0;
  for (int k = 0; k < ids.len && res != 1; k++) {
    if (own && !strcmp(ids.items[k], own))
      continue;
    int v = reach_name(r, ids.items[k], out);
    res = v == 1 ? 1 : v == 2 ? 2 : res;
  }
  vec_free(&ids);
  return res;
}

/* 1 if what name expands to, or its declaration's text, reaches a macro
 * the sides define differently (*out: how), 2 if the answer waits on a
 * name being followed (not remembered), 0 if not. */
static int reach_name(Reach *r, const char *name, Differs **out) {
  unsigned slot;
  if (name_has(&r->differs, name, &slot)) {
    *out = r->info.items[slot - 1];
    return 1;
  }
  if (name_has(&r->same, name, NULL) || is_keyword(name))
    return 0;
  if (reach_active(r, name))
    return 2;
  if (r->active.len > 400) /* a chain this long is read no further: as differing */
    return reach_differs(r, name, name, ~0u, "a chain of definitions tfuse does not follow this far", out);
  vec_push(&r->active, (void *)name);
  int res = 0;
  Vec ids = {0};
  unsigned at = ~0u;
  const char *where = NULL;
  for (int i = 0; i < r->inputs->len && res != 1; i++) {
    TargetInput *in = r->inputs->items[i];
    unsigned a = ~0u;
    const char *w = NULL;
    int v = in->macro_differs(in->differs_ctx, name, &ids, &a, &w);
    if (v >= 0 && where == NULL) {
      at = a;
      where = w;
    }
    if (v == 1)
      res = reach_differs(r, name, name, a, w, out);
  }
  for (int k = 0; k < ids.len && res != 1; k++) {
    if (!strcmp(ids.items[k], name))
      continue; /* a macro's own name in its text is not expanded again */
    Differs *inner;
    int v = reach_name(r, ids.items[k], &inner);
    if (v == 1)
      res = reach_differs(r, name, inner->via, at, where, out);
    else if (v == 2)
      res = 2;
  }
  vec_free(&ids);
  unsigned ds;
  if (res != 1 && name_has(&r->decl_index, name, &ds)) {
    Vec *list = r->decls.items[ds - 1];
    for (int j = 0; j < list->len && res != 1; j++) {
      TargetDecl *d = list->items[j];
      Differs *inner;
      int v = reach_text(r, r->u->src->text, d->begin, d->end, name, &inner);
      if (v == 1)
        res = reach_differs(r, name, inner->via, d->at, NULL, out);
      else if (v == 2)
        res = 2;
    }
  }
  r->active.len--;
  if (res == 0)
    name_add(&r->same, name, 0);
  return res;
}

/* Marks s (a function whose text is t[b, e)) arch_dependent if an
 * identifier of its text reaches what the sides define differently. */
static void reach_function(Reach *r, Sym *s, const char *t, unsigned b, unsigned e) {
  Vec ids = {0}, offs = {0};
  idents(t, b, e, &ids, &offs);
  for (int k = 0; k < ids.len && !s->arch_dependent; k++) {
    Differs *d;
    if (strcmp(ids.items[k], s->name) && reach_name(r, ids.items[k], &d) == 1) {
      s->arch_dependent = true;
      s->arch_name = ids.items[k];
      s->arch_at = d->at;
      s->arch_where = d->at == ~0u ? d->where : NULL;
      s->arch_via = strcmp(d->via, ids.items[k]) ? d->via : NULL;
      s->arch_use = (unsigned)(uintptr_t)offs.items[k];
    }
  }
  vec_free(&ids);
  vec_free(&offs);
}

/* The state for what functions reach, kept while the unit is: a helper
 * outside the project's files is read when an analysis needs it
 * (target_mark_external). */
static Reach *reach_new(Unit *u, Vec *inputs) {
  Reach *r = calloc(1, sizeof *r);
  r->u = u;
  r->inputs = calloc(1, sizeof(Vec));
  for (int i = 0; i < inputs->len; i++) {
    TargetInput *in = inputs->items[i];
    if (in->macro_differs)
      vec_push(r->inputs, in);
    r->failed |= in->device_failed;
  }
  for (int i = 0; i < r->inputs->len; i++) {
    TargetInput *in = r->inputs->items[i];
    for (int j = 0; j < in->host_decls.len; j++) {
      TargetDecl *d = in->host_decls.items[j];
      if (d->macro || d->function || d->host_only || d->begin == ~0u || d->begin >= d->end)
        continue;
      unsigned slot;
      if (!name_has(&r->decl_index, d->name, &slot)) {
        vec_push(&r->decls, calloc(1, sizeof(Vec)));
        slot = (unsigned)r->decls.len;
        name_add(&r->decl_index, d->name, slot);
      }
      vec_push(r->decls.items[slot - 1], d);
    }
  }
  return r;
}

static void reach_free(Reach *r) {
  if (!r)
    return;
  for (int i = 0; i < r->decls.len; i++) {
    vec_free(r->decls.items[i]);
    free(r->decls.items[i]);
  }
  vec_free(&r->decls);
  vec_free(&r->info);
  vec_free(&r->active);
  vec_free(r->inputs);
  free(r->inputs);
  free(r->same.keys);
  free(r->same.at);
  free(r->differs.keys);
  free(r->differs.at);
  free(r->decl_index.keys);
  free(r->decl_index.at);
  free(r);
}

/* Marks s, a function of the project's files or a helper outside them
 * (not yet arch_dependent), by what its text t[b, e) reaches. */
static void reach_mark_one(Reach *r, Sym *s, const char *t, unsigned b, unsigned e) {
  if (!s || s->arch_dependent || s->host_only)
    return;
  if (r->failed) /* without the device's reading, any macro may be another */
    s->arch_dependent = true;
  else if (r->inputs->len)
    reach_function(r, s, t, b, e);
}

/* The state target.c keeps in Unit.target. */
typedef struct {
  NameSet *names; /* the target names (names_mark), or NULL */
  Reach *reach;
} TargetState;

void target_mark(Unit *u, Vec *inputs) {
  TargetState *st = calloc(1, sizeof *st);
  u->target = NULL;
  names_mark(u, inputs);
  st->names = u->target;
  st->reach = reach_new(u, inputs);
  u->target = st;
  for (int i = 0; i < u->functions.len; i++) {
    Node *fn = u->functions.items[i];
    reach_mark_one(st->reach, fn->sym, u->src->text, fn->begin, fn->end);
  }
}

void target_mark_external(Unit *u, Sym *fn, const char *t, unsigned b, unsigned e) {
  TargetState *st = u->target;
  if (st && st->reach)
    reach_mark_one(st->reach, fn, t, b, e);
}

bool target_name(const Unit *u, const char *name, unsigned *at) {
  const TargetState *st = u->target;
  return st && name_has(st->names, name, at);
}

void target_dispose(Unit *u) {
  TargetState *st = u->target;
  if (!st)
    return;
  if (st->names) {
    free(st->names->keys);
    free(st->names->at);
    free(st->names);
  }
  reach_free(st->reach);
  free(st);
  u->target = NULL;
}
