/* device: the device side's reading of each input, for target.c.
 *
 * Contract: for each input whose files name the compilation target or a
 * predefined macro the two sides differ in (target_tests), parses it a
 * second time as the device compilation for sm_90 does, and fills its
 * TargetInput: the ranges each side's preprocessor skipped, the
 * declarations each side saw (TargetDecl), and the two sides' macro tables,
 * so that target.c can compare what a function reaches on either side.
 * The device unit is kept while the host's is (its cursors are the
 * tables'). */
#define _GNU_SOURCE /* dladdr */
#include "passes.h"
#include "parse_int.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the device side, for target.c ---- */

/* Every macro definition of a translation unit, by name: the host's
 * values of the macros a target condition names (target.c). */
typedef struct {
  const char *name;
  CXCursor def;
} MacroDefAt;

typedef struct {
  MacroDefAt *defs;
  size_t n, cap;
} MacroTable;

static int cmp_macro_def(const void *a, const void *b) {
  return strcmp(((const MacroDefAt *)a)->name, ((const MacroDefAt *)b)->name);
}

/* TargetInput.macro_body over a MacroTable sorted by name. */
static int macro_body_of(void *ctx, const char *name, Vec *toks) {
  MacroTable *mt = ctx;
  size_t lo = 0, hi = mt->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(mt->defs[mid].name, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo >= mt->n || strcmp(mt->defs[lo].name, name))
    return 0;
  char **first = NULL;
  int nfirst = 0;
  for (size_t i = lo; i < mt->n && !strcmp(mt->defs[i].name, name); i++) {
    CXCursor d = mt->defs[i].def;
    if (clang_Cursor_isMacroFunctionLike(d))
      return -1;
    int nt;
    char **t = token_spellings(d, &nt);
    if (nt == 0)
      return -1; /* a predefined macro tfuse cannot read */
    if (!first) {
      first = t;
      nfirst = nt;
      continue;
    }
    if (nt != nfirst)
      return -1;
    for (int k = 0; k < nt; k++)
      if (strcmp(t[k], first[k]))
        return -1;
  }
  for (int k = 1; toks && k < nfirst; k++) /* first[0] is the name */
    vec_push(toks, first[k]);
  return 1;
}

/* The two sides' macro tables, for TargetInput.macro_differs. */
typedef struct {
  Impl *im;
  MacroTable *host, *device;
} MacroSides;

/* Where name's definitions lie in mt (sorted by name): [*lo, *hi). */
static void macro_range(const MacroTable *mt, const char *name, size_t *lo, size_t *hi) {
  size_t a = 0, b = mt->n;
  while (a < b) {
    size_t mid = (a + b) / 2;
    if (strcmp(mt->defs[mid].name, name) < 0)
      a = mid + 1;
    else
      b = mid;
  }
  *lo = a;
  for (b = a; b < mt->n && !strcmp(mt->defs[b].name, name);)
    b++;
  *hi = b;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* One side's definitions of name, each as one string (its file and place,
 * and its tokens), sorted, joined; NULL if that side has none.  ids (if
 * given): the identifiers of the replacement lists, parameters aside; *at,
 * *where: a definition's place (a project offset, else ~0u; "path:line"). */
static char *macro_signature(Impl *im, const MacroTable *mt, const char *name, Vec *ids, unsigned *at,
                             const char **where) {
  size_t lo, hi;
  macro_range(mt, name, &lo, &hi);
  if (lo == hi)
    return NULL;
  char **sigs = calloc(hi - lo, sizeof *sigs);
  size_t nsig = 0;
  char *predefined = NULL; /* the last predefined definition's text: the one in force */
  unsigned predefined_off = 0;
  for (size_t i = lo; i < hi; i++) {
    CXCursor d = mt->defs[i].def;
    CXFile f = NULL;
    unsigned line = 0, off = 0;
    clang_getSpellingLocation(clang_getCursorLocation(d), &f, &line, NULL, &off);
    const char *path = "";
    if (f) {
      CXString fn = clang_getFileName(f);
      path = clang_getCString(fn) ? arena_strdup(clang_getCString(fn)) : "";
      clang_disposeString(fn);
      const char *real = real_path(path);
      if (real)
        path = real;
    }
    int nt;
    char **t = token_spellings(d, &nt);
    Buf b = {0};
    /* A file's definition by its place (the texts are the same on both
     * sides); a predefined one, whose buffer differs between the sides, by
     * its text. */
    if (f)
      buf_printf(&b, "%s:%u", path, off);
    bool params = clang_Cursor_isMacroFunctionLike(d);
    buf_printf(&b, "%s", params ? "(" : "");
    for (int k = 1; k < nt; k++) {
      buf_printf(&b, " %s", t[k]);
      if (params) {
        params = strcmp(t[k], ")") != 0;
        continue;
      }
      if (ids && ((t[k][0] >= 'a' && t[k][0] <= 'z') || (t[k][0] >= 'A' && t[k][0] <= 'Z') || t[k][0] == '_'))
        vec_push(ids, t[k]);
    }
    char *sig = arena_strdup(b.data ? b.data : "");
    buf_free(&b);
    if (!f) {
      if (!predefined || off >= predefined_off) {
        predefined = sig;
        predefined_off = off;
      }
    } else {
      sigs[nsig++] = sig;
    }
    if (i == lo && at) {
      Source *pf = f ? project_file_of(im, path) : NULL;
      *at = pf && off <= pf->len ? pf->base + off : ~0u;
      *where = f ? arena_printf("%s:%u", pf ? pf->path : path, line) : "a predefined macro";
    }
  }
  qsort(sigs, nsig, sizeof *sigs, cmp_str);
  Buf b = {0};
  if (predefined)
    buf_printf(&b, "predefined%s\n", predefined);
  for (size_t i = 0; i < nsig; i++)
    buf_printf(&b, "%s\n", sigs[i]);
  free(sigs);
  char *out = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  return out;
}

/* TargetInput.macro_differs over the two sides' tables. */
static int macro_differs_of(void *ctx, const char *name, Vec *ids, unsigned *at, const char **where) {
  MacroSides *ms = ctx;
  unsigned hat = ~0u, dat = ~0u;
  const char *hwhere = NULL, *dwhere = NULL;
  char *h = macro_signature(ms->im, ms->host, name, ids, &hat, &hwhere);
  char *d = macro_signature(ms->im, ms->device, name, NULL, &dat, &dwhere);
  if (!h && !d)
    return -1;
  bool differ = !h || !d || strcmp(h, d);
  /* The device's definition named first where they differ. */
  *at = differ && d ? dat : hat;
  *where = differ && d ? dwhere : hwhere;
  return differ;
}

typedef struct {
  Impl *im;
  Vec *out;           /* TargetDecl* */
  MacroTable *macros; /* every macro definition, or NULL */
  Vec *elsewhere;     /* char*: real paths of the files outside the project's that only this side includes
                         (their declarations are recorded with at ~0u), or NULL */
} DeclScan;

/* The real paths of the files, not system headers, that a translation
 * unit includes. */
static void included_visit(CXFile included, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  IncludeScan *sc = data;
  if (depth == 0)
    return;
  CXString name = clang_getFileName(included);
  const char *real = real_path(clang_getCString(name) ? clang_getCString(name) : "");
  clang_disposeString(name);
  if (real && !clang_Location_isInSystemHeader(clang_getLocationForOffset(sc->tu, included, 0)))
    vec_push(sc->included, (void *)real);
}

static bool has_path(const Vec *paths, const char *real) {
  for (int i = 0; i < paths->len; i++)
    if (!strcmp(paths->items[i], real))
      return true;
  return false;
}

/* What one side includes and the other does not (a header under
 * `#ifdef __CUDA_ARCH__`) counts as skipped whole by the other: a file of
 * the project as its range in `skipped` of the other side; another (outside
 * the root) by path in `elsewhere`, whose declarations are then recorded
 * with at ~0u. */
static void one_sided(Impl *im, const Vec *mine, const Vec *theirs, Vec *their_skipped, Vec *elsewhere) {
  for (int i = 0; i < mine->len; i++) {
    const char *real = mine->items[i];
    if (has_path(theirs, real) || has_path(elsewhere, real))
      continue;
    Source *f = project_file_of(im, real);
    if (f) {
      unsigned *r = arena_alloc(2 * sizeof *r);
      r[0] = f->base;
      r[1] = f->base + (unsigned)f->len;
      vec_push(their_skipped, r);
    } else {
      vec_push(elsewhere, (void *)real);
    }
  }
}

static void compare_includes(Impl *im, int t, CXTranslationUnit dtu, TargetInput *ti, Vec *host_elsewhere,
                             Vec *device_elsewhere) {
  Vec host = {0}, device = {0};
  IncludeScan hs = {im, im->tus[t], NULL, &host}, ds = {im, dtu, NULL, &device};
  clang_getInclusions(im->tus[t], included_visit, &hs);
  clang_getInclusions(dtu, included_visit, &ds);
  one_sided(im, &host, &device, &ti->device_skipped, host_elsewhere);
  one_sided(im, &device, &host, &ti->host_skipped, device_elsewhere);
  vec_free(&host);
  vec_free(&device);
}

/* Whether c is a function the device cannot call: neither __device__ nor
 * __global__ (on it or its definition), not constexpr, and its return type
 * written out (a deduced one would carry its body's types into a device
 * declaration's `decltype`). */
static bool host_only_function(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_CXXMethod)
    return false;
  CXCursor def = clang_getCursorDefinition(c);
  CXCursor sides[2] = {c, def};
  for (int i = 0; i < 2; i++) {
    if (clang_Cursor_isNull(sides[i]))
      continue;
    Attrs a = cursor_attrs(sides[i]);
    CXSourceRange ext = clang_getCursorExtent(sides[i]);
    CXSourceRange head = clang_getRange(clang_getRangeStart(ext), clang_getCursorLocation(sides[i]));
    if (a.device || a.global || decl_is_constexpr(sides[i]) ||
        range_has_token(clang_Cursor_getTranslationUnit(sides[i]), head, "auto"))
      return false;
  }
  return true;
}

/* The declarations and macro definitions of the project's files, outside
 * function bodies: namespaces, classes and enums are entered. */
static enum CXChildVisitResult target_decl_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  DeclScan *sc = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  bool macro = k == CXCursor_MacroDefinition;
  if (macro && sc->macros) {
    MacroTable *mt = sc->macros;
    if (mt->n == mt->cap) {
      mt->cap = mt->cap ? mt->cap * 2 : 1024;
      mt->defs = realloc(mt->defs, mt->cap * sizeof *mt->defs);
    }
    mt->defs[mt->n++] = (MacroDefAt){take_string(clang_getCursorSpelling(c)), c};
  }
  if (!macro && !clang_isDeclaration(k))
    return CXChildVisit_Continue;
  bool enter = k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
               k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
               k == CXCursor_EnumDecl || k == CXCursor_ClassTemplate ||
               k == CXCursor_ClassTemplatePartialSpecialization;
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned at, b, e;
  bool named = k != CXCursor_Namespace && k != CXCursor_LinkageSpec && k != CXCursor_UnexposedDecl;
  if (named && sc->elsewhere && sc->elsewhere->len && !loc_in_main(sc->im, clang_getCursorLocation(c), NULL)) {
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
    CXString fname = f ? clang_getFileName(f) : (CXString){0};
    const char *real = f ? real_path(clang_getCString(fname) ? clang_getCString(fname) : "") : NULL;
    if (f)
      clang_disposeString(fname);
    if (real && has_path(sc->elsewhere, real)) {
      TargetDecl *d = arena_alloc(sizeof *d);
      d->name = take_string(clang_getCursorSpelling(c));
      d->begin = d->end = d->at = ~0u;
      d->macro = macro;
      if (d->name[0])
        vec_push(sc->out, d);
    }
    return enter ? CXChildVisit_Recurse : CXChildVisit_Continue;
  }
  if (named && loc_in_main(sc->im, clang_getCursorLocation(c), &at) && loc_in_main(sc->im, clang_getRangeStart(r), &b) &&
      loc_in_main(sc->im, clang_getRangeEnd(r), &e)) {
    char *name = take_string(clang_getCursorSpelling(c));
    if (name[0]) {
      TargetDecl *d = arena_alloc(sizeof *d);
      d->name = name;
      d->begin = b <= at ? b : at;
      d->end = e >= b ? e : at;
      d->at = at;
      d->macro = macro;
      d->host_only = !macro && host_only_function(c);
      d->function = k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
                    k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
      vec_push(sc->out, d);
    }
  }
  return enter ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

typedef struct {
  CXTranslationUnit tu;
  bool tests;
} MentionScan;

/* Whether an included file, not a system header, names what the sides may
 * define differently (target_tests). */
static void mention_visit(CXFile included, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  (void)depth;
  MentionScan *sc = data;
  if (sc->tests || clang_Location_isInSystemHeader(clang_getLocationForOffset(sc->tu, included, 0)))
    return;
  size_t size = 0;
  const char *text = clang_getFileContents(sc->tu, included, &size);
  sc->tests = text && target_tests(text, size);
}

/* For each input whose files (the input, the headers it includes that are
 * no system headers, in the project or not) name what the two sides may
 * define differently (target_tests): the host's skipped ranges and
 * declarations, and the device side's, from a device-side parse of the
 * input with the same texts (target.c). */
void target_inputs(Unit *u, Project *p, const Options *opt, Vec *out) {
  Impl *im = impl_of(u);
  for (int t = 0; t < im->ntus; t++) {
    MentionScan ms = {im->tus[t], getenv("TFUSE_ALWAYS_DEVICE") != NULL};
    clang_getInclusions(im->tus[t], mention_visit, &ms);
    if (!ms.tests)
      continue;
    TargetInput *ti = arena_alloc(sizeof *ti);
    for (int i = 0; i < im->tu_skipped[t].len; i++)
      vec_push(&ti->host_skipped, im->tu_skipped[t].items[i]);
    const Input *in = p->inputs.items[t];
    Vec args = {0};
    parser_args(in, opt, &args, true);
    CXTranslationUnit dtu = NULL;
    if (!parse_input(im->index, in, &args, &p->texts, PARSE_FLAGS, &dtu, true))
      dtu = NULL;
    ti->device_failed = !dtu;
    Vec host_elsewhere = {0}, device_elsewhere = {0};
    if (dtu)
      compare_includes(im, t, dtu, ti, &host_elsewhere, &device_elsewhere);
    set_tu(im, t);
    MacroTable *mt = arena_alloc(sizeof *mt);
    DeclScan hs = {im, &ti->host_decls, mt, &host_elsewhere};
    clang_visitChildren(clang_getTranslationUnitCursor(im->tus[t]), target_decl_visit, &hs);
    if (mt->n > 1)
      qsort(mt->defs, mt->n, sizeof *mt->defs, cmp_macro_def);
    ti->macro_body = macro_body_of;
    ti->macro_ctx = mt;
    if (dtu) {
      set_tu(im, t); /* the device unit's files are its own */
      skipped_ranges(im, dtu, &ti->device_skipped);
      MacroTable *dmt = arena_alloc(sizeof *dmt);
      DeclScan ds = {im, &ti->device_decls, dmt, &device_elsewhere};
      clang_visitChildren(clang_getTranslationUnitCursor(dtu), target_decl_visit, &ds);
      if (dmt->n > 1)
        qsort(dmt->defs, dmt->n, sizeof *dmt->defs, cmp_macro_def);
      MacroSides *ms = arena_alloc(sizeof *ms);
      *ms = (MacroSides){im, mt, dmt};
      ti->macro_differs = macro_differs_of;
      ti->differs_ctx = ms;
      ti->device_unit = dtu; /* the tables' cursors are its own: disposed after target_mark */
    }
    vec_free(&host_elsewhere);
    vec_free(&device_elsewhere);
    vec_free(&args);
    set_tu(im, t);
    vec_push(out, ti);
  }
}

void device_dispose(Impl *im) {
  for (int i = 0; i < im->targets.len; i++) {
    TargetInput *ti = im->targets.items[i];
    vec_free(&ti->host_skipped);
    vec_free(&ti->device_skipped);
    vec_free(&ti->host_decls);
    vec_free(&ti->device_decls);
    if (ti->macro_ctx)
      free(((MacroTable *)ti->macro_ctx)->defs);
    if (ti->differs_ctx)
      free(((MacroSides *)ti->differs_ctx)->device->defs);
    if (ti->device_unit)
      clang_disposeTranslationUnit(ti->device_unit);
  }
}
