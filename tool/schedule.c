/* schedule: a run over many files, in groups, each in a process of its own,
 * gathered from the records every run keeps of its kernels and files.
 *
 * Contract: schedule_project takes the project that project_open made
 * (several inputs, or -keep-going, -j or -report-json) and splits its
 * inputs into groups that share nothing tfuse could rewrite: two inputs
 * are in one group when one's text (with the headers under the root that
 * it includes, read as text) defines or names a kernel that the other's
 * defines or names.  A kernel and every launch of it are then in one group,
 * so a group can be rewritten alone.  Each group is rewritten by
 * coarsen_project_all (tool/run.c) in a child process, -j at a time: its
 * translation units die with it (memory is that of the largest group, not
 * of the tree), a crash or a failure stays in its group, and its
 * diagnostics are printed whole when it ends.  A child stages its changed
 * files and writes its records (below); the parent writes the staged files
 * at the end: all or none, or with -keep-going those of the groups that
 * succeeded.  Then the closing summary (stderr) and the -report-json file.
 *
 * The texts can miss a kernel (defined or named through a macro, a header
 * included through one, a kernel of another namespace): each child's parse
 * also says which files it saw, which kernels it defines and which it
 * declares or launches without defining them, and before writing, the
 * parent leaves out (check_groups) a group whose coarsened kernel another
 * group names in a file only that group saw (unless it coarsened that
 * kernel alike), and two groups that staged one file with different texts.
 * An input the database compiles with several sets of flags the parser
 * reads differently gets a twin of its group per other set (the same
 * inputs, that one with those flags): a twin writes and reports nothing,
 * and its group is written only where the twin staged the same files with
 * the same texts (check_twins).
 * A group stopped by -timeout, or that crashed, fails as a whole.
 *
 * Records (tool/records.c), one line each, tab-separated, fields with
 * tabs, newlines and backslashes escaped, kept by every run, a single
 * file's too, for -v and -report-json:
 *   K  file  line  col  kernel  decision  factor  reason
 *   F  file  status  reason          status: parsed, failed
 *   M  name                          a -kernel NAME this group defines
 *   O  destination  staged  file     a changed file, staged (children only)
 *   P  file                          a file of the group's parse (real path)
 *   D  kernel  file  line  col       a kernel defined there (real path)
 *   U  kernel  file  line  col       a declaration or launch of a kernel no file of the group defines
 */
#include "tfuse.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- sets ---- */

static bool vec_has(const Vec *v, const char *s) {
  for (int i = 0; i < v->len; i++)
    if (!strcmp(v->items[i], s))
      return true;
  return false;
}

/* A set of strings (open addressing, grows at half full). */
typedef struct {
  const char **slot;
  size_t cap, count;
} StrSet;

static bool strset_add(StrSet *s, const char *str) {
  if (2 * (s->count + 1) > s->cap) {
    size_t ncap = s->cap ? 2 * s->cap : 64;
    const char **ns = calloc(ncap, sizeof *ns);
    for (size_t i = 0; i < s->cap; i++)
      if (s->slot[i]) {
        size_t j = str_hash(s->slot[i]) & (ncap - 1);
        while (ns[j])
          j = (j + 1) & (ncap - 1);
        ns[j] = s->slot[i];
      }
    free(s->slot);
    s->slot = ns;
    s->cap = ncap;
  }
  size_t j = str_hash(str) & (s->cap - 1);
  while (s->slot[j] && strcmp(s->slot[j], str))
    j = (j + 1) & (s->cap - 1);
  if (s->slot[j])
    return false;
  s->slot[j] = str;
  s->count++;
  return true;
}

static bool strset_has(const StrSet *s, const char *str) {
  if (!s->cap)
    return false;
  size_t j = str_hash(str) & (s->cap - 1);
  while (s->slot[j] && strcmp(s->slot[j], str))
    j = (j + 1) & (s->cap - 1);
  return s->slot[j] != NULL;
}

/* ---- what the parent gathers ---- */

typedef struct Group Group;

typedef struct {
  char *file, *kernel, *decision, *factor, *reason;
  int line, col;
  Group *g;         /* the group that recorded it */
  const char *real; /* file's real path (NULL if none) */
  char *constructs; /* the census: construct rows separated by \x1f ("" none) */
  int dispatches;   /* launch sites that run the original where the shape is not served */
} KernelRec;

typedef struct {
  char *file, *status, *reason;
} FileRec;

typedef struct {
  Vec kernels; /* KernelRec* */
  Vec files;   /* FileRec* */
  Vec matched; /* char* */
  Vec outs;    /* OutRec* */
  int groups, failed_groups;
} Gathered;

/* A changed file a group staged. */
typedef struct {
  char *dest, *staged, *file;
  Group *g;
  const char *real; /* file's real path */
} OutRec;

/* A declaration or launch of a kernel that its group does not define, where it is. */
typedef struct {
  char *kernel, *file;
  int line, col;
} UseRec;

struct Group {
  Vec inputs;        /* Input* */
  Vec kernels;       /* char*: the kernels its files define that this run selects */
  const char *first; /* its first input's path, for progress */
  Vec texts;         /* TextFile*: the files its inputs reach, read as text */
  /* What its child's parse saw (nothing if it failed to parse): */
  Vec parsed;        /* char*: the real paths of its files */
  Vec defs;          /* char*[2]: a kernel it defines, the real path of the file that does */
  Vec uses;          /* UseRec*: declarations and launches of kernels defined in none of its files */
  Vec files;         /* TextFile*: those of its parse, else its texts (check_groups) */
  StrSet file_set;   /* their real paths */
  bool failed;       /* nothing of it is written */
  bool unparsed;     /* one of its files failed to parse: `parsed` is not all it reaches */
  /* A twin: group `twin_of` again, one input (`alt`) with the flags of
   * its other compile command.  It writes nothing and reports no kernel:
   * its staged files must be the twin's, text for text, or the twin is
   * left unchanged (check_twins). */
  Group *twin_of;
  const Input *alt;
};

/* Splits one record line into its tab-separated fields (at most max). */
static int split_fields(char *line, char **f, int max) {
  int n = 0;
  for (char *p = line; n < max;) {
    f[n++] = p;
    char *t = strchr(p, '\t');
    if (!t)
      break;
    *t = 0;
    p = t + 1;
  }
  for (int i = 0; i < n; i++)
    record_unescape(f[i]);
  return n;
}

static void gather_lines(Gathered *gt, Group *g, char *text) {
  for (char *line = text; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = 0;
    char *f[10] = {0};
    int n = split_fields(arena_strdup(line), f, 10);
    if (!strcmp(f[0], "K") && n == 10) {
      KernelRec *r = arena_alloc(sizeof *r);
      *r = (KernelRec){f[1], f[4], f[5], f[6], f[7], atoi(f[2]), atoi(f[3]), g, g ? path_real(f[1]) : NULL, f[8],
                       atoi(f[9])};
      vec_push(&gt->kernels, r);
    } else if (!strcmp(f[0], "F") && n == 4) {
      FileRec *r = arena_alloc(sizeof *r);
      *r = (FileRec){f[1], f[2], f[3]};
      vec_push(&gt->files, r);
    } else if (!strcmp(f[0], "M") && n == 2) {
      vec_push(&gt->matched, f[1]);
    } else if (!strcmp(f[0], "O") && n == 4) {
      OutRec *o = arena_alloc(sizeof *o);
      *o = (OutRec){f[1], f[2], f[3], g, path_real(f[3])};
      vec_push(&gt->outs, o);
    } else if (g && !strcmp(f[0], "P") && n == 2) {
      vec_push(&g->parsed, f[1]);
    } else if (g && !strcmp(f[0], "D") && n == 5) {
      char **d = arena_alloc(2 * sizeof *d);
      d[0] = f[1];
      d[1] = f[2];
      vec_push(&g->defs, d);
    } else if (g && !strcmp(f[0], "U") && n == 5) {
      UseRec *u = arena_alloc(sizeof *u);
      *u = (UseRec){f[1], f[2], atoi(f[3]), atoi(f[4])};
      vec_push(&g->uses, u);
    }
    line = nl ? nl + 1 : NULL;
  }
}

/* ---- the groups: which inputs share kernels, read as text ---- */

/* A file of the project read as text: its #include names, the kernels it
 * defines and the identifiers it uses that are kernels' names. */
typedef struct {
  const char *real;
  Vec includes;  /* char*: "name" (quoted) or <name> as written, with its delimiters, or a macro's name */
  Vec include_macros; /* char*[2]: an object-like macro defined as "name" or <name>, and that text */
  Vec defines;   /* char*: kernels defined (`__global__ ... name(...) {`) */
  Vec annotated; /* char*: those of them after a `#pragma tfuse` */
  Vec idents;    /* char*: every identifier, once (to meet the kernels' names later) */
  Vec named;     /* char*: kernels it may use defined elsewhere: declared with __global__ (no body), or launched */
  StrSet words;  /* the identifiers, those of its directives' bodies too (malloc'd slots) */
} TextFile;

typedef struct {
  Vec files; /* TextFile* */
} TextCache;

static size_t skip_ident(const char *t, size_t len, size_t i) {
  while (i < len && ident_char(t[i]))
    i++;
  return i;
}

/* After `__global__` at i: the kernel's name if this is a definition (its
 * parameter list is followed by a body), else NULL.  The name is the last
 * identifier before the first `(` outside attribute lists
 * (`__launch_bounds__(...)`, `__attribute__((...))`), a `<...>` right
 * before that `(` (an explicit specialization) skipped. */
static char *kernel_declared_at(const char *t, size_t len, size_t i, bool *definition) {
  *definition = false;
  size_t name_b = 0, name_e = 0;
  while (i < len) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    char c = t[i];
    if (c == ';' || c == '{' || c == '}')
      return NULL;
    if (ident_char(c)) {
      size_t e = skip_ident(t, len, i);
      size_t k = e;
      while (k < len && (t[k] == ' ' || t[k] == '\t' || t[k] == '\n'))
        k++;
      bool attr = (e - i == 17 && !strncmp(t + i, "__launch_bounds__", 17)) ||
                  (e - i == 13 && !strncmp(t + i, "__attribute__", 13)) ||
                  (e - i == 16 && !strncmp(t + i, "__cluster_dims__", 16)) ||
                  (e - i == 8 && !strncmp(t + i, "__align__", 8)) ||
                  (e - i == 7 && !strncmp(t + i, "alignas", 7)) || (e - i == 8 && !strncmp(t + i, "decltype", 8));
      if (attr && k < len && t[k] == '(') {
        int depth = 0;
        for (i = k; i < len; i++) {
          depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
          if (depth == 0)
            break;
        }
        i++;
        continue;
      }
      name_b = i;
      name_e = e;
      i = e;
      continue;
    }
    if (c == '<' && name_e) { /* template arguments of the name: skipped whole */
      int depth = 0;
      for (; i < len; i++) {
        depth += t[i] == '<' ? 1 : t[i] == '>' ? -1 : 0;
        if (depth == 0 || t[i] == ';' || t[i] == '{')
          break;
      }
      i++;
      continue;
    }
    if (c == '(')
      break;
    i++;
  }
  if (!name_e || i >= len)
    return NULL;
  /* The parameter list, then a body or a `;`. */
  int depth = 0;
  for (; i < len; i++) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j - 1;
      continue;
    }
    depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
    if (depth == 0)
      break;
  }
  for (i++; i < len; i++) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j - 1;
      continue;
    }
    if (t[i] == '{' || t[i] == ';') {
      *definition = t[i] == '{';
      return arena_strndup(t + name_b, name_e - name_b);
    }
    if (t[i] == '}' || t[i] == '=')
      return NULL;
  }
  return NULL;
}

/* The identifiers of a directive's body from i (a macro's definition may
 * name a kernel), comments and literals left out. */
static void directive_words(const char *t, size_t len, size_t i, StrSet *words) {
  while (i < len && t[i] != '\n') {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    if (ident_char(t[i]) && !(t[i] >= '0' && t[i] <= '9') && !(i > 0 && ident_char(t[i - 1]))) {
      size_t e = skip_ident(t, len, i);
      strset_add(words, arena_strndup(t + i, e - i));
      i = e;
      continue;
    }
    i += t[i] == '\\' && i + 1 < len ? 2 : 1;
  }
}

/* After `#define` at i: an object-like macro whose text is a header's
 * name, for an `#include NAME` (a computed include). */
static void include_macro(TextFile *f, const char *t, size_t len, size_t i) {
  while (i < len && (t[i] == ' ' || t[i] == '\t'))
    i++;
  size_t e = skip_ident(t, len, i), q = e;
  if (e == i || e >= len || (t[e] != ' ' && t[e] != '\t'))
    return;
  while (q < len && (t[q] == ' ' || t[q] == '\t'))
    q++;
  char close = q < len && t[q] == '"' ? '"' : q < len && t[q] == '<' ? '>' : 0;
  size_t r = q + 1;
  while (close && r < len && t[r] != close && t[r] != '\n')
    r++;
  if (!close || r >= len || t[r] != close)
    return;
  char **m = arena_alloc(2 * sizeof *m);
  m[0] = arena_strndup(t + i, e - i);
  m[1] = arena_strndup(t + q, r - q + 1);
  vec_push(&f->include_macros, m);
}

/* Reads a file once: its includes, kernels and identifiers (its text stays
 * in the arena: a tree's sources are small beside a parse). */
static TextFile *text_file(TextCache *c, const char *real) {
  for (int i = 0; i < c->files.len; i++) {
    TextFile *f = c->files.items[i];
    if (!strcmp(f->real, real))
      return f;
  }
  TextFile *f = arena_alloc(sizeof *f);
  f->real = real;
  vec_push(&c->files, f);
  Source src = {0};
  if (!source_load(&src, real))
    return f;
  const char *t = src.text;
  size_t len = src.len;
  StrSet *seen = &f->words;
  bool line_start = true;
  size_t last_pragma = (size_t)-1, last_end = 0; /* a `#pragma tfuse`, the last `;` or `}` */
  for (size_t i = 0; i < len;) {
    if (line_start) {
      size_t k = i;
      while (k < len && (t[k] == ' ' || t[k] == '\t'))
        k++;
      if (k < len && t[k] == '#') {
        k++;
        while (k < len && (t[k] == ' ' || t[k] == '\t'))
          k++;
        size_t e = skip_ident(t, len, k);
        bool include =
            (e - k == 7 && !strncmp(t + k, "include", 7)) || (e - k == 12 && !strncmp(t + k, "include_next", 12));
        if (include) {
          while (e < len && (t[e] == ' ' || t[e] == '\t'))
            e++;
          char close = e < len && t[e] == '"' ? '"' : e < len && t[e] == '<' ? '>' : 0;
          size_t q = e + 1;
          while (close && q < len && t[q] != close && t[q] != '\n')
            q++;
          if (close && q < len && t[q] == close)
            vec_push(&f->includes, arena_strndup(t + e, q - e + 1));
          else if (!close && e < len && ident_char(t[e]))
            vec_push(&f->includes, arena_strndup(t + e, skip_ident(t, len, e) - e));
        } else if (e - k == 6 && !strncmp(t + k, "define", 6))
          include_macro(f, t, len, e);
        else if (e - k == 6 && !strncmp(t + k, "pragma", 6)) {
          size_t p = e;
          while (p < len && (t[p] == ' ' || t[p] == '\t'))
            p++;
          if (len - p >= 5 && !strncmp(t + p, "tfuse", 5))
            last_pragma = i;
        }
        if (!include)
          directive_words(t, len, e, seen); /* not a header's name: <thrust/copy.h> names no kernel 'copy' */
        /* The rest of the directive (with its continuation lines). */
        while (k < len && t[k] != '\n')
          k += t[k] == '\\' && k + 1 < len ? 2 : 1;
        i = k;
        continue;
      }
      line_start = false;
    }
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      for (size_t k = i; k < j; k++)
        line_start |= t[k] == '\n';
      i = j;
      continue;
    }
    char ch = t[i];
    if (ch == '\n') {
      line_start = true;
      i++;
      continue;
    }
    if (ch == ';' || ch == '}')
      last_end = i;
    if (!ident_char(ch) || (i > 0 && ident_char(t[i - 1]))) {
      i++;
      continue;
    }
    size_t e = skip_ident(t, len, i);
    if (ch >= '0' && ch <= '9') {
      i = e;
      continue;
    }
    char *id = arena_strndup(t + i, e - i);
    if (strset_add(seen, id))
      vec_push(&f->idents, id);
    bool definition;
    char *k = !strcmp(id, "__global__") ? kernel_declared_at(t, len, e, &definition) : NULL;
    if (k && definition) {
      vec_push(&f->defines, k);
      if (last_pragma != (size_t)-1 && last_pragma > last_end)
        vec_push(&f->annotated, k);
    } else if ((k && !vec_has(&f->named, k)) || (!k && launch_chevrons(&src, (unsigned)e) && !vec_has(&f->named, id))) {
      vec_push(&f->named, k ? k : id);
    }
    i = e;
  }
  return f;
}

/* The file an #include names, as the compiler would find it: beside the
 * including file (quoted form), then in the include folders; NULL if it
 * is not under the root (or not found). */
static const char *resolve_include(const Project *p, const char *from, const char *inc, const Vec *dirs) {
  size_t n = strlen(inc);
  char *name = arena_strndup(inc + 1, n - 2);
  Vec tries = {0};
  if (name[0] == '/')
    vec_push(&tries, name);
  else {
    if (inc[0] == '"') {
      const char *slash = strrchr(from, '/');
      vec_push(&tries, arena_printf("%.*s/%s", (int)(slash ? slash - from : 1), slash ? from : "/", name));
    }
    for (int i = 0; i < dirs->len; i++)
      vec_push(&tries, arena_printf("%s/%s", (char *)dirs->items[i], name));
  }
  for (int i = 0; i < tries.len; i++) {
    const char *real = path_real(tries.items[i]);
    struct stat st;
    if (real && stat(real, &st) == 0 && S_ISREG(st.st_mode))
      return project_under_root(p, real) ? real : NULL;
  }
  return NULL;
}

/* What `#include NAME` names: the header name some file already read
 * defines NAME as (any definition of it), or NULL. */
static const char *include_macro_value(const Vec *files, const char *name) {
  for (int i = 0; i < files->len; i++) {
    const TextFile *f = files->items[i];
    for (int j = 0; j < f->include_macros.len; j++) {
      char **m = f->include_macros.items[j];
      if (!strcmp(m[0], name))
        return m[1];
    }
  }
  return NULL;
}

/* The files of the project an input reaches: itself, then every header
 * under the root it includes, directly or not (each #include taken, as if
 * every preprocessor branch were; `#include NAME` as NAME's definition in
 * a file read says), and its pre-included files. */
static void input_closure(const Project *p, TextCache *c, const Input *in, Vec *out) {
  Vec dirs = {0}, pre = {0};
  flags_include_paths(&in->flags, &dirs, &pre);
  vec_push(out, text_file(c, in->real));
  for (int i = 0; i < pre.len; i++) {
    const char *real = path_real(pre.items[i]);
    if (real && project_under_root(p, real))
      vec_push(out, text_file(c, real));
  }
  for (int i = 0; i < out->len; i++) {
    TextFile *f = out->items[i];
    for (int j = 0; j < f->includes.len; j++) {
      const char *inc = f->includes.items[j];
      if (inc[0] != '"' && inc[0] != '<')
        inc = include_macro_value(out, inc);
      const char *real = inc ? resolve_include(p, f->real, inc, &dirs) : NULL;
      if (!real)
        continue;
      TextFile *h = text_file(c, real);
      bool have = false;
      for (int k = 0; k < out->len && !have; k++)
        have = out->items[k] == h;
      if (!have)
        vec_push(out, h);
    }
  }
}

static int uf_find(int *parent, int i) {
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

static void uf_union(int *parent, int a, int b) {
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a != b)
    parent[a < b ? b : a] = a < b ? a : b;
}

/* Whether the run selects kernel `name` defined in a file (before parsing:
 * what a group that fails to parse leaves unchanged). */
static bool selected(const Options *opt, const TextFile *f, const char *name) {
  return opt->all_kernels || vec_has(&opt->kernels, name) || vec_has(&f->annotated, name);
}

/* Inputs A and B share a group when a file both reach defines a kernel, or
 * one declares (`__global__` without a body) or launches a kernel that it
 * does not reach a definition of and the other reaches one.  A mere name
 * is not enough: separate programs of one tree reuse kernels' names for
 * other things (`thrust::copy` beside a kernel `copy`); the parent's check
 * of the groups' parses (check_groups) catches what the texts miss. */
static void plan_groups(const Project *p, const Options *opt, TextCache *cache, Vec *groups) {
  int n = p->inputs.len;
  Vec *closure = arena_alloc(sizeof(Vec) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    input_closure(p, cache, p->inputs.items[i], &closure[i]);
  /* Nodes: the inputs, then every file read. */
  int nf = cache->files.len;
  int *parent = malloc(sizeof(int) * (size_t)(n + nf));
  for (int i = 0; i < n + nf; i++)
    parent[i] = i;
  StrSet kernels = {0};
  for (int f = 0; f < nf; f++) {
    TextFile *t = cache->files.items[f];
    for (int j = 0; j < t->defines.len; j++)
      strset_add(&kernels, t->defines.items[j]);
  }
  for (int i = 0; i < n; i++) {
    StrSet defined = {0};
    for (int j = 0; j < closure[i].len; j++) {
      TextFile *t = closure[i].items[j];
      for (int d = 0; d < t->defines.len; d++)
        strset_add(&defined, t->defines.items[d]);
      if (t->defines.len)
        for (int f = 0; f < nf; f++)
          if (cache->files.items[f] == t)
            uf_union(parent, i, n + f);
    }
    for (int j = 0; j < closure[i].len; j++) {
      TextFile *t = closure[i].items[j];
      for (int d = 0; d < t->named.len; d++) {
        const char *id = t->named.items[d];
        if (!strset_has(&kernels, id) || strset_has(&defined, id))
          continue;
        for (int f = 0; f < nf; f++)
          if (vec_has(&((TextFile *)cache->files.items[f])->defines, id))
            uf_union(parent, i, n + f);
      }
    }
    free(defined.slot);
  }
  /* One group per root, in the inputs' order. */
  Group **by_root = calloc((size_t)(n + nf), sizeof *by_root);
  for (int i = 0; i < n; i++) {
    int r = uf_find(parent, i);
    if (!by_root[r]) {
      by_root[r] = arena_alloc(sizeof(Group));
      by_root[r]->first = ((Input *)p->inputs.items[i])->path;
      vec_push(groups, by_root[r]);
    }
    Group *g = by_root[r];
    vec_push(&g->inputs, p->inputs.items[i]);
    for (int j = 0; j < closure[i].len; j++) {
      TextFile *t = closure[i].items[j];
      if (!vec_has_item(&g->texts, t))
        vec_push(&g->texts, t);
      for (int d = 0; d < t->defines.len; d++)
        if (selected(opt, t, t->defines.items[d]) && !vec_has(&g->kernels, t->defines.items[d]))
          vec_push(&g->kernels, t->defines.items[d]);
    }
  }
  free(by_root);
  free(parent);
  free(kernels.slot);
  /* A twin per input compiled with other flags, and per set of them. */
  for (int gi = 0, ng = groups->len; gi < ng; gi++) {
    Group *g = groups->items[gi];
    for (int i = 0; i < g->inputs.len; i++) {
      const Input *in = g->inputs.items[i];
      for (int a = 0; a < in->alts.len; a++) {
        Group *t = arena_alloc(sizeof *t);
        *t = (Group){.first = g->first, .texts = g->texts, .kernels = g->kernels, .twin_of = g, .alt = in->alts.items[a]};
        for (int j = 0; j < g->inputs.len; j++)
          vec_push(&t->inputs, j == i ? in->alts.items[a] : g->inputs.items[j]);
        vec_push(groups, t);
      }
    }
  }
}

/* ---- the children ---- */

typedef struct {
  Group *g;
  pid_t pid;
  char *rec, *err; /* its record and diagnostics files */
  double start;    /* when it started (-timeout) */
  bool timed_out;  /* stopped by -timeout */
} Job;

static bool write_whole(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return (fclose(f) == 0) && ok;
}

/* The child: rewrites group g as a project of its own; never returns. */
static void run_child(const Project *p, Options *opt, Group *g, int gi, const char *stage, const char *rec,
                      const char *err) {
  FILE *e = freopen(err, "w", stderr);
  (void)e;
  Project sub = {0};
  sub.root = p->root;
  sub.inputs = g->inputs;
  /* The database's files not given; the other groups' files are the
   * parent's to check against this group's kernels (check_groups), which
   * knows a kernel of theirs that has the name of one of this group's. */
  sub.others = p->others;
  opt->group_run = true;
  Vec outputs = {0};
  int rc = coarsen_project_all(&sub, opt, &outputs);
  if (rc == 0 && !opt->dump_after)
    for (int i = 0; i < outputs.len; i++) {
      const Output *o = outputs.items[i];
      const char *dest = project_destination(&sub, o, opt);
      const char *staged = arena_printf("%s/g%d.%d", stage, gi, i);
      if (!dest || !write_whole(staged, o->text, o->len)) {
        rc = 1;
        break;
      }
      record_output(dest, staged, o->file->path);
    }
  fflush(stderr);
  size_t rlen;
  const char *rtext = records_text(&rlen);
  bool ok = write_whole(rec, rtext, rlen);
  _exit(ok ? rc : 3);
}

/* Copies a child's diagnostics to stderr. */
static void copy_out(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return;
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    fwrite(buf, 1, n, stderr);
  fclose(f);
  unlink(path);
}

static char *slurp(const char *path, size_t *len) {
  Source s = {0};
  if (!source_load(&s, path))
    return NULL;
  *len = s.len;
  return s.text;
}

double now_seconds(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static bool progress_on;

static void progress(int done, int all, int files_done, int files_all, const char *current) {
  if (!progress_on)
    return;
  fprintf(stderr, "\r\033[Ktfuse: %d/%d files (%d/%d groups)%s%s", files_done, files_all, done, all,
          current ? ", now " : "", current ? current : "");
  fflush(stderr);
}

static void progress_clear(void) {
  if (progress_on)
    fputs("\r\033[K", stderr);
}

/* A group that ended without its records (a crash, a signal): its files
 * failed and its selected kernels stay unchanged. */
static void gather_lost(Gathered *gt, const Group *g, const char *why) {
  for (int i = 0; i < g->inputs.len; i++) {
    FileRec *r = arena_alloc(sizeof *r);
    *r = (FileRec){(char *)((Input *)g->inputs.items[i])->path, "failed", (char *)why};
    vec_push(&gt->files, r);
  }
  for (int i = 0; i < g->kernels.len; i++) {
    KernelRec *r = arena_alloc(sizeof *r);
    *r = (KernelRec){(char *)g->first, g->kernels.items[i], "unchanged", "", (char *)why, 0, 0, (Group *)g, NULL, "", 0};
    vec_push(&gt->kernels, r);
  }
}

/* A group whose files failed to parse: its records say which, but not its
 * kernels (unknown without a parse): those its texts define and the run
 * selects are left unchanged. */
static void gather_unparsed(Gathered *gt, const Group *g, const char *why) {
  for (int i = 0; i < g->kernels.len; i++) {
    bool have = false;
    for (int j = 0; j < gt->kernels.len && !have; j++)
      have = !strcmp(((KernelRec *)gt->kernels.items[j])->kernel, g->kernels.items[i]);
    if (have)
      continue;
    KernelRec *r = arena_alloc(sizeof *r);
    *r = (KernelRec){(char *)g->first, g->kernels.items[i], "unchanged", "", (char *)why, 0, 0, (Group *)g, NULL, "", 0};
    vec_push(&gt->kernels, r);
  }
}

static double opt_timeout; /* -timeout, for finish_job's reason */

static void finish_twin(Gathered *gt, Job *j, int status);

static void finish_job(Gathered *gt, Job *j, int status) {
  if (j->g->twin_of) {
    finish_twin(gt, j, status);
    return;
  }
  copy_out(j->err);
  size_t len = 0;
  /* None after a crash or -timeout (and no error for it: the group's is said). */
  char *text = access(j->rec, R_OK) == 0 ? slurp(j->rec, &len) : NULL;
  unlink(j->rec);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok) {
    gt->failed_groups++;
    j->g->failed = true;
  }
  if (!text) {
    const char *why = j->timed_out         ? arena_printf("stopped after the -timeout of %g s", opt_timeout)
                      : WIFSIGNALED(status) ? arena_printf("tfuse stopped on signal %d while rewriting these files",
                                                           WTERMSIG(status))
                                            : "tfuse could not finish rewriting these files";
    fprintf(stderr, "tfuse: %s%s: %s\n", j->g->first, j->g->inputs.len > 1 ? " and the files with it" : "", why);
    gather_lost(gt, j->g, why);
    return;
  }
  int before = gt->files.len;
  gather_lines(gt, j->g, text);
  for (int i = before; i < gt->files.len; i++) {
    FileRec *r = gt->files.items[i];
    if (!strcmp(r->status, "failed")) {
      j->g->unparsed = true;
      gather_unparsed(gt, j->g, r->reason);
      break;
    }
  }
}

/* A twin's end: its staged files join the others (check_twins compares
 * them with its twin's); its kernels and files are its twin's, reported
 * once.  Where it could not rewrite its files, its diagnostics are shown
 * and the twin is left unchanged (check_twins). */
static void finish_twin(Gathered *gt, Job *j, int status) {
  size_t len = 0;
  char *text = access(j->rec, R_OK) == 0 ? slurp(j->rec, &len) : NULL;
  unlink(j->rec);
  Gathered own = {0};
  if (text)
    gather_lines(&own, j->g, text);
  bool ok = text && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  for (int i = 0; i < own.files.len && ok; i++)
    ok = strcmp(((FileRec *)own.files.items[i])->status, "failed") != 0;
  if (!ok) {
    copy_out(j->err);
    j->g->failed = true;
  }
  unlink(j->err);
  for (int i = 0; i < own.outs.len; i++)
    if (ok)
      vec_push(&gt->outs, own.outs.items[i]);
    else
      unlink(((OutRec *)own.outs.items[i])->staged);
  vec_free(&own.kernels);
  vec_free(&own.files);
  vec_free(&own.matched);
  vec_free(&own.outs);
}

/* ---- what the groups' texts missed ---- */

/* The files group g staged go. */
static void unstage(Gathered *gt, const Group *g) {
  for (int i = 0; i < gt->outs.len;) {
    OutRec *o = gt->outs.items[i];
    if (o->g != g) {
      i++;
      continue;
    }
    unlink(o->staged);
    gt->outs.items[i] = gt->outs.items[--gt->outs.len];
  }
}

/* A group that cannot be written after all: its staged files go, its
 * kernels stay unchanged and its inputs are reported failed, for `why`. */
static void drop_group(Gathered *gt, Group *g, const char *why) {
  g->failed = true;
  gt->failed_groups++;
  unstage(gt, g);
  for (int i = 0; i < gt->kernels.len; i++) {
    KernelRec *r = gt->kernels.items[i];
    if (r->g == g && !strcmp(r->decision, "coarsened")) {
      r->decision = "unchanged";
      r->reason = (char *)why;
    }
  }
  for (int i = 0; i < g->inputs.len; i++) {
    FileRec *r = arena_alloc(sizeof *r);
    *r = (FileRec){(char *)((Input *)g->inputs.items[i])->path, "failed", (char *)why};
    vec_push(&gt->files, r);
  }
}

/* Whether every file of group h parsed: its records then say all it
 * declares, defines and launches. */
static bool parsed_whole(const Group *h) { return h->parsed.len && !h->unparsed; }

/* A group's files (check_groups): those its parse saw, else those its
 * inputs reach as text; and the set of their real paths. */
static void group_files(Group *h, TextCache *cache) {
  if (!parsed_whole(h))
    h->files = h->texts;
  else
    for (int i = 0; i < h->parsed.len; i++)
      vec_push(&h->files, text_file(cache, h->parsed.items[i]));
  for (int i = 0; i < h->files.len; i++)
    strset_add(&h->file_set, ((TextFile *)h->files.items[i])->real);
}

/* The first place where one of `files` (TextFile*) not in `theirs` spells
 * `name` as a word. */
static bool word_place(const Vec *files, const StrSet *theirs, const char *name, const char **file, int *line,
                       int *col) {
  for (int i = 0; i < files->len; i++) {
    TextFile *t = files->items[i];
    if (strset_has(theirs, t->real) || !strset_has(&t->words, name))
      continue;
    Source src = {0};
    long at = source_load(&src, t->real) ? text_find_word(src.text, src.len, 0, name) : -1;
    *file = t->real;
    *line = *col = 0;
    if (at >= 0)
      source_linecol(&src, (unsigned)at, line, col);
    return true;
  }
  return false;
}

/* Whether group h names kernel `name` defined in file `def` (real path) of
 * another group, in a file that group's parse did not see (`theirs`): a
 * declaration or launch of a kernel of that name that h does not define
 * (its parse's: a kernel of another namespace, a name made by token
 * pasting); and where h did not parse whole, the name as a word (its
 * text, directives included) unless h defines a kernel of that name in
 * another file (then the name is h's own kernel).  The place:
 * file, line, column. */
static bool named_apart(const Group *h, const char *name, const char *def, const StrSet *theirs, const char **file,
                        int *line, int *col) {
  for (int i = 0; i < h->uses.len; i++) {
    UseRec *u = h->uses.items[i];
    if (!strcmp(u->kernel, name) && !strset_has(theirs, u->file)) {
      *file = u->file;
      *line = u->line;
      *col = u->col;
      return true;
    }
  }
  /* A group that parsed said what it declares and launches (above): C++
   * names a function only after declaring it, so a use of the kernel is a
   * declaration its parse recorded; a word of the same spelling elsewhere
   * (a local `sum`, a helper `copy` of another program) is not one.  And
   * what it defines: one that reached the kernel's own definition and did
   * not coarsen it alike (the caller asked) keeps its launches of it as
   * they were (a launch in a macro's body, say), while the definition is
   * rewritten. */
  if (parsed_whole(h)) {
    for (int i = 0; i < h->defs.len; i++) {
      char **d = h->defs.items[i];
      if (!strcmp(d[0], name) && !strcmp(d[1], def)) {
        if (!word_place(&h->files, theirs, name, file, line, col)) { /* the place: a use of its own, else the definition */
          *file = d[1];
          *line = *col = 0;
        }
        return true;
      }
    }
    return false;
  }
  for (int i = 0; i < h->files.len; i++) {
    TextFile *t = h->files.items[i];
    if (vec_has(&t->defines, name) && strcmp(t->real, def))
      return false;
  }
  return word_place(&h->files, theirs, name, file, line, col);
}

/* The reason a group's text missed, at its place (printed, then recorded). */
static const char *apart_reason(const Options *opt, const char *file, int line, int col, const char *fmt,
                                const char *a, const char *b) {
  const char *why = arena_printf(fmt, a, b);
  const char *place = line ? arena_printf("%s:%d:%d", file, line, col) : file;
  fprintf(stderr, "%s: %s: %s\n", place, opt->keep_going ? "warning" : "error", why);
  return arena_printf("%s (%s)", why, place);
}

/* Whether group h coarsened kernel r too (defined in the same file, with
 * the same factor): a kernel of a header both include, each group
 * rewriting its own launches. */
static bool coarsened_too(const Gathered *gt, const Group *h, const KernelRec *r) {
  for (int i = 0; i < gt->kernels.len; i++) {
    KernelRec *o = gt->kernels.items[i];
    if (o->g == h && !h->failed && !strcmp(o->decision, "coarsened") && !strcmp(o->kernel, r->kernel) &&
        o->real && r->real && !strcmp(o->real, r->real) && !strcmp(o->factor, r->factor))
      return true;
  }
  return false;
}

/* One pass of check_groups; whether it left a group out. */
static bool check_groups_once(Gathered *gt, Vec *groups, const Options *opt) {
  for (int i = 0; i < gt->kernels.len; i++) {
    KernelRec *r = gt->kernels.items[i];
    if (!r->g || r->g->failed || strcmp(r->decision, "coarsened"))
      continue;
    /* Block mode with -external-launches: the user launches it elsewhere. */
    if (opt->external_launches && strstr(r->factor, " block."))
      continue;
    for (int j = 0; j < groups->len; j++) {
      Group *h = groups->items[j];
      const char *file;
      int line, col;
      if (h == r->g || h->twin_of || coarsened_too(gt, h, r) ||
          !named_apart(h, r->kernel, r->real ? r->real : r->file, &r->g->file_set, &file, &line, &col))
        continue;
      drop_group(gt, r->g,
                 apart_reason(opt, file, line, col,
                              "coarsened kernel '%s' is named here, in a file rewritten apart from it (its text did "
                              "not show this use of it: a macro, a namespace), so it would not be rewritten: the "
                              "files of %s are left unchanged",
                              r->kernel, r->g->first));
      return true;
    }
  }
  /* One file staged by two groups: the same text once, else neither. */
  for (int i = 0; i < gt->outs.len; i++) {
    OutRec *a = gt->outs.items[i];
    for (int j = i + 1; j < gt->outs.len; j++) {
      OutRec *b = gt->outs.items[j];
      if (!a->real || !b->real || strcmp(a->real, b->real) || a->g == b->g)
        continue;
      size_t la = 0, lb = 0;
      char *ta = slurp(a->staged, &la), *tb = slurp(b->staged, &lb);
      if (ta && tb && la == lb && !memcmp(ta, tb, la)) {
        unlink(b->staged);
        gt->outs.items[j--] = gt->outs.items[--gt->outs.len];
        continue;
      }
      const char *why = apart_reason(opt, a->file, 0, 0,
                                     "rewritten differently by the files of %s and those of %s: the files of "
                                     "both are left unchanged",
                                     a->g->first, b->g->first);
      Group *ga = a->g, *gb = b->g;
      drop_group(gt, ga, why);
      drop_group(gt, gb, why);
      return true;
    }
  }
  return false;
}

/* The staged file of group g for the file whose real path is real, or NULL. */
static OutRec *staged_by(const Gathered *gt, const Group *g, const char *real) {
  for (int i = 0; i < gt->outs.len; i++) {
    OutRec *o = gt->outs.items[i];
    if (o->g == g && o->real && !strcmp(o->real, real))
      return o;
  }
  return NULL;
}

/* Whether the twin t staged the files its group did, text for text. */
static bool twin_agrees(const Gathered *gt, const Group *t) {
  for (int i = 0; i < gt->outs.len; i++) {
    OutRec *o = gt->outs.items[i];
    if (o->g != t && o->g != t->twin_of)
      continue;
    OutRec *other = staged_by(gt, o->g == t ? t->twin_of : t, o->real ? o->real : "");
    size_t la = 0, lb = 0;
    char *ta = other ? slurp(o->staged, &la) : NULL, *tb = other ? slurp(other->staged, &lb) : NULL;
    if (!ta || !tb || la != lb || memcmp(ta, tb, la))
      return false;
  }
  return true;
}

/* A file compiled with several sets of flags is written only where every
 * set gives the same text: a group whose twin (plan_groups) could not
 * rewrite its files, or staged other files or other texts, is left
 * unchanged.  The twins' staged files go. */
static void check_twins(Gathered *gt, Vec *groups, const Options *opt) {
  for (int i = 0; i < groups->len; i++) {
    Group *t = groups->items[i];
    if (!t->twin_of)
      continue;
    Group *g = t->twin_of;
    if (!g->failed && (t->failed || !twin_agrees(gt, t))) {
      const char *why = arena_printf("'%s' is compiled twice with different flags (%s) and %s with the other "
                                     "command's: the files of %s are left unchanged",
                                     t->alt->path, t->alt->conflict,
                                     t->failed ? "cannot be rewritten" : "is rewritten differently", g->first);
      fprintf(stderr, "%s: %s: %s\n", t->alt->path, opt->keep_going ? "warning" : "error", why);
      drop_group(gt, g, why);
    }
    unstage(gt, t);
  }
}

/* What the groups' reading of the texts missed (a kernel defined or named
 * through a macro, a header included through one): a group whose coarsened
 * kernel another group names in a file of its own (unless that group
 * coarsened it too), or two groups that rewrite one file differently, are
 * not written; and again, since a group left out leaves its files as they
 * were.  Each group's parse says which files it saw, which kernels it
 * defines and launches. */
static void check_groups(Gathered *gt, Vec *groups, TextCache *cache, const Options *opt) {
  check_twins(gt, groups, opt);
  for (int i = 0; i < groups->len; i++)
    group_files(groups->items[i], cache);
  while (check_groups_once(gt, groups, opt))
    ;
  for (int i = 0; i < groups->len; i++)
    free(((Group *)groups->items[i])->file_set.slot);
}

/* ---- summary and report ---- */

/* A reason without the names in it, to count reasons alike: quoted names
 * become '…', and the advice after ": " or "; " goes (but not inside
 * parentheses, which hold the first error of a file that failed). */
static char *reason_class(const char *r) {
  Buf b = {0};
  bool quote = false;
  int paren = 0;
  for (const char *p = r; *p; p++) {
    paren += !quote && *p == '(' ? 1 : !quote && *p == ')' ? -1 : 0;
    if (!quote && !paren && ((p[0] == ':' || p[0] == ';') && p[1] == ' ') && b.len > 0)
      break;
    /* A quote opens after a non-letter (else it is an apostrophe: "pointer's"). */
    if (*p == '\'' && (quote || p == r || !ident_char(p[-1]))) {
      buf_puts(&b, quote ? "'" : "'\xe2\x80\xa6");
      quote = !quote;
      continue;
    }
    if (!quote)
      buf_add(&b, p, 1);
  }
  char *s = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  return s;
}

typedef struct {
  const char *what;
  int n;
} Count;

static void count_add(Vec *counts, const char *what) {
  for (int i = 0; i < counts->len; i++) {
    Count *c = counts->items[i];
    if (!strcmp(c->what, what)) {
      c->n++;
      return;
    }
  }
  Count *c = arena_alloc(sizeof *c);
  c->what = what;
  c->n = 1;
  vec_push(counts, c);
}

static int cmp_count(const void *a, const void *b) {
  const Count *x = *(Count *const *)a, *y = *(Count *const *)b;
  return x->n != y->n ? y->n - x->n : strcmp(x->what, y->what);
}

static void print_counts(Vec *counts) {
  if (counts->len > 1)
    qsort(counts->items, (size_t)counts->len, sizeof(void *), cmp_count);
  for (int i = 0; i < counts->len; i++) {
    Count *c = counts->items[i];
    fprintf(stderr, "tfuse: %6d  %s\n", c->n, c->what);
  }
}

/* The final status of each file (failed wins, then written). */
static const char *file_status(const Gathered *gt, const char *file, const char **reason) {
  const char *st = "unchanged";
  *reason = "";
  for (int i = 0; i < gt->files.len; i++) {
    FileRec *r = gt->files.items[i];
    if (strcmp(r->file, file))
      continue;
    if (!strcmp(r->status, "failed")) {
      *reason = r->reason;
      return "failed";
    }
    if (!strcmp(r->status, "written"))
      st = "written";
  }
  return st;
}

static void summary(const Gathered *gt, int inputs, double seconds) {
  Vec seen = {0}, failed = {0}, reasons = {0};
  int parsed = 0, nfailed = 0, written = 0;
  for (int i = 0; i < gt->files.len; i++) {
    FileRec *r = gt->files.items[i];
    if (vec_has(&seen, r->file))
      continue;
    vec_push(&seen, r->file);
    const char *why;
    const char *st = file_status(gt, r->file, &why);
    if (!strcmp(st, "failed")) {
      nfailed++;
      count_add(&failed, reason_class(why));
    } else
      parsed++;
    written += !strcmp(st, "written");
  }
  fprintf(stderr, "tfuse: %d input file%s, %d file%s in all: %d parsed, %d failed, %d written (%.1f s)\n", inputs,
          inputs == 1 ? "" : "s", seen.len, seen.len == 1 ? "" : "s", parsed, nfailed, written, seconds);
  print_counts(&failed);
  int coarsened = 0, unchanged = 0;
  for (int i = 0; i < gt->kernels.len; i++) {
    KernelRec *r = gt->kernels.items[i];
    if (!strcmp(r->decision, "coarsened"))
      coarsened++;
    else {
      unchanged++;
      count_add(&reasons, reason_class(r->reason));
    }
  }
  fprintf(stderr, "tfuse: %d kernel%s: %d coarsened, %d left unchanged%s\n", gt->kernels.len,
          gt->kernels.len == 1 ? "" : "s", coarsened, unchanged, unchanged ? ":" : "");
  print_counts(&reasons);
}

/* The length of the well-formed UTF-8 sequence at s (1 to 4), or 0. */
static int utf8_length(const unsigned char *s) {
  int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
        : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  /* Overlong, surrogate or past U+10FFFF. */
  if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
      (s[0] == 0xf4 && s[1] >= 0x90))
    return 0;
  return n;
}

/* A JSON string: quotes, backslashes and control characters escaped, a
 * byte that is not well-formed UTF-8 (a file name may hold any) as U+FFFD. */
static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
    int n = utf8_length(p);
    if (n == 0) {
      fputs("\\ufffd", f);
      p++;
    } else if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p++);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\u%04x", *p++);
    else {
      fwrite(p, 1, (size_t)n, f);
      p += n;
    }
  }
  fputc('"', f);
}

static bool write_report(const char *path, const Gathered *gt, double seconds) {
  char *tmp = arena_printf("%s.tfuse-XXXXXX", path);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    error_plain("cannot write the report '%s': %s", path, strerror(errno));
    return false;
  }
  fputs("{\n  \"files\": [", f);
  Vec seen = {0};
  for (int i = 0; i < gt->files.len; i++) {
    FileRec *r = gt->files.items[i];
    if (vec_has(&seen, r->file))
      continue;
    vec_push(&seen, r->file);
    const char *why, *st = file_status(gt, r->file, &why);
    fprintf(f, "%s\n    {\"file\": ", seen.len > 1 ? "," : "");
    json_string(f, r->file);
    fputs(", \"status\": ", f);
    json_string(f, st);
    fputs(", \"reason\": ", f);
    json_string(f, why);
    fputc('}', f);
  }
  fputs("\n  ],\n  \"kernels\": [", f);
  for (int i = 0; i < gt->kernels.len; i++) {
    KernelRec *r = gt->kernels.items[i];
    fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
    json_string(f, r->file);
    fprintf(f, ", \"line\": %d, \"column\": %d, \"kernel\": ", r->line, r->col);
    json_string(f, r->kernel);
    fputs(", \"decision\": ", f);
    json_string(f, r->decision);
    fputs(", \"factor\": ", f);
    json_string(f, r->factor);
    fputs(", \"reason\": ", f);
    json_string(f, r->reason);
    fputs(", \"constructs\": [", f);
    for (char *c = r->constructs, *next; c && *c; c = next) {
      next = strchr(c, '\x1f');
      if (c != r->constructs)
        fputs(", ", f);
      json_string(f, next ? arena_strndup(c, (size_t)(next - c)) : c);
      next = next ? next + 1 : NULL;
    }
    fputs("]", f);
    if (r->dispatches)
      fprintf(f, ", \"dispatch_sites\": %d", r->dispatches);
    fputs("}", f);
  }
  fprintf(f, "\n  ],\n  \"seconds\": %.3f\n}\n", seconds);
  bool ok = fclose(f) == 0;
  chmod(tmp, 0644);
  if (!ok || rename(tmp, path) != 0) {
    error_plain("cannot write the report '%s': %s", path, strerror(errno));
    unlink(tmp);
    return false;
  }
  return true;
}

/* Writes the staged files to their destinations, all or none. */
static bool commit_outputs(const Gathered *gt) {
  int n = gt->outs.len;
  const char **paths = arena_alloc(sizeof(char *) * (size_t)(n ? n : 1));
  char **data = arena_alloc(sizeof(char *) * (size_t)(n ? n : 1));
  size_t *lens = arena_alloc(sizeof(size_t) * (size_t)(n ? n : 1));
  bool ok = true;
  int m = 0, stdout_at = -1;
  for (int i = 0; i < n && ok; i++) {
    OutRec *o = gt->outs.items[i];
    size_t len = 0;
    char *text = slurp(o->staged, &len);
    if (!text) {
      error_plain("cannot read the staged file '%s'", o->staged);
      ok = false;
      break;
    }
    data[m] = text;
    lens[m] = len;
    if (!strcmp(o->dest, "-")) {
      stdout_at = m;
    } else if (!project_make_parent(o->dest))
      ok = false;
    paths[m++] = o->dest;
  }
  if (!ok)
    return false;
  if (stdout_at >= 0)
    return file_write("-", data[stdout_at], lens[stdout_at]);
  return files_write(m, paths, data, lens);
}

static void mark_written(Gathered *gt) {
  for (int i = 0; i < gt->outs.len; i++) {
    OutRec *o = gt->outs.items[i];
    FileRec *r = arena_alloc(sizeof *r);
    *r = (FileRec){o->file, "written", ""};
    vec_push(&gt->files, r);
  }
}

bool schedule_wanted(const Project *p, const Options *opt) {
  bool alts = false;
  for (int i = 0; i < p->inputs.len && !alts; i++)
    alts = ((Input *)p->inputs.items[i])->alts.len > 0;
  return !opt->dump_after &&
         (p->inputs.len > 1 || alts || opt->keep_going || opt->jobs > 1 || opt->report_json || opt->timeout > 0);
}

/* -timeout: stops the groups running longer (reported as failed). */
static void stop_late(Job *run, int jobs, double timeout) {
  double now = now_seconds();
  for (int s = 0; s < jobs; s++)
    if (run[s].g && !run[s].timed_out && now - run[s].start > timeout) {
      kill(run[s].pid, SIGKILL);
      run[s].timed_out = true;
    }
}

int schedule_project(Project *p, Options *opt) {
  double t0 = now_seconds();
  Vec groups = {0};
  TextCache cache = {0};
  plan_groups(p, opt, &cache, &groups);
  char stage_tmpl[] = "/tmp/tfuse-stage-XXXXXX";
  const char *tmpdir = getenv("TMPDIR");
  char *stage = tmpdir && *tmpdir ? arena_printf("%s/tfuse-stage-XXXXXX", tmpdir) : stage_tmpl;
  if (!mkdtemp(stage)) {
    error_plain("cannot create a folder for the files being rewritten: %s", strerror(errno));
    return 1;
  }
  int jobs = opt->jobs > 0 ? opt->jobs : 1;
  opt_timeout = opt->timeout;
  progress_on = isatty(2) && groups.len > 1;
  Job *run = calloc((size_t)jobs, sizeof *run);
  Gathered gt = {0};
  for (int i = 0; i < groups.len; i++)
    gt.groups += !((Group *)groups.items[i])->twin_of;
  int next = 0, running = 0, done = 0, files_done = 0;
  while (next < groups.len || running > 0) {
    while (running < jobs && next < groups.len) {
      Group *g = groups.items[next];
      int slot = 0;
      while (run[slot].g)
        slot++;
      Job *j = &run[slot];
      j->g = g;
      j->rec = arena_printf("%s/g%d.rec", stage, next);
      j->err = arena_printf("%s/g%d.err", stage, next);
      progress(done, groups.len, files_done, p->inputs.len, g->first);
      fflush(stdout);
      fflush(stderr);
      j->start = now_seconds();
      j->timed_out = false;
      j->pid = fork();
      if (j->pid == 0)
        run_child(p, opt, g, next, stage, j->rec, j->err);
      if (j->pid < 0) {
        error_plain("cannot start a process: %s", strerror(errno));
        j->g = NULL;
        next = groups.len;
        gt.failed_groups++;
        break;
      }
      next++;
      running++;
    }
    if (!running)
      break;
    int status;
    pid_t pid = opt->timeout > 0 ? waitpid(-1, &status, WNOHANG) : wait(&status);
    if (pid == 0) { /* -timeout: the groups still running are watched */
      stop_late(run, jobs, opt->timeout);
      nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
      continue;
    }
    if (pid < 0 && errno == EINTR)
      continue;
    if (pid < 0)
      break;
    for (int s = 0; s < jobs; s++) {
      if (!run[s].g || run[s].pid != pid)
        continue;
      progress_clear();
      finish_job(&gt, &run[s], status);
      files_done += run[s].g->inputs.len;
      run[s].g = NULL;
      running--;
      done++;
      progress(done, groups.len, files_done, p->inputs.len, NULL);
    }
  }
  progress_clear();
  free(run);
  check_groups(&gt, &groups, &cache, opt);
  for (int i = 0; i < cache.files.len; i++)
    free(((TextFile *)cache.files.items[i])->words.slot);

  /* -kernel names no group defines. */
  for (int i = 0; i < opt->kernels.len; i++)
    if (!vec_has(&gt.matched, opt->kernels.items[i]))
      warning_plain("no __global__ function named '%s' is defined in the files given", (char *)opt->kernels.items[i]);
  int rc = 0;
  if (gt.failed_groups && !opt->keep_going) {
    /* Their errors are printed: this says what follows from them. */
    fprintf(stderr, "tfuse: no file written: %d of %d group%s of files could not be rewritten (-keep-going writes "
                    "the others)\n", gt.failed_groups, gt.groups, gt.groups == 1 ? "" : "s");
    rc = 1;
  } else if (!opt->dump_after) {
    /* -o with -keep-going: a file left as it was is still the output. */
    if (!opt->in_place && !opt->out_dir && gt.outs.len == 0 && p->inputs.len == 1) {
      Source in = {0};
      const char *stage_in = arena_printf("%s/input", stage);
      OutRec *o = arena_alloc(sizeof *o);
      *o = (OutRec){(char *)(opt->output ? opt->output : "-"), (char *)stage_in,
                    (char *)((Input *)p->inputs.items[0])->path, NULL, NULL};
      if (source_load(&in, o->file) && write_whole(stage_in, in.text, in.len))
        vec_push(&gt.outs, o);
    }
    if (!commit_outputs(&gt))
      rc = 1;
    else
      mark_written(&gt);
  }
  if (rc)
    for (int i = 0; i < gt.kernels.len; i++) {
      KernelRec *r = gt.kernels.items[i];
      if (!strcmp(r->decision, "coarsened")) {
        r->decision = "unchanged";
        r->reason = "no file was written";
      }
    }
  for (int i = 0; i < gt.outs.len; i++)
    unlink(((OutRec *)gt.outs.items[i])->staged);
  rmdir(stage);
  double secs = now_seconds() - t0;
  summary(&gt, p->inputs.len, secs);
  if (opt->report_json && !write_report(opt->report_json, &gt, secs))
    rc = 1;
  return rc;
}

void schedule_summary_one(const Project *p, double seconds) {
  Gathered gt = {0};
  gather_lines(&gt, NULL, arena_strdup(records_text(NULL)));
  summary(&gt, p->inputs.len, seconds);
}
