/* parse: runs libclang on the inputs and builds tfuse's own syntax tree.
 *
 * Contract: requires the Project's inputs (project_open); provides the
 * project's files (the inputs, then the headers they include from under the
 * root that are not system headers) and their text end to end, which every
 * offset of a Node or Sym is in; Unit.functions (every function defined in
 * those files, as N_FUNC trees), Unit.fn_decls (the prototypes),
 * Node.cand for the calls a template's pattern leaves open (see "callees a
 * template's pattern leaves open"),
 * Unit.launches (every `k<<<...>>>(...)` call) and one Sym per declaration.
 * Each input is its own translation unit; a header several inputs include
 * is imported once, from the first, and symbols are shared by USR, so a
 * kernel of a header and its launches in two inputs meet.  Only the
 * files of the parse see libclang's CX* types (parse_int.h: symbols.c
 * makes the Syms, build.c the trees, clang.c runs libclang, device.c
 * reads the device side for target.c): the other passes work on Node and
 * Sym.  Parse errors are the compiler's own diagnostics, forwarded with
 * their location, once each.
 *
 * CUDA is parsed host-side (--cuda-host-only): device function bodies are
 * still fully analysed by clang, and the launches exist only on the host
 * side.  `threadIdx.x` reaches us as a MemberRefExpr over a DeclRefExpr to
 * the builtin variable; it becomes one N_BUILTIN node. */
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

/* ---- top level ---- */

/* Whether a function's text, comments aside, tests the compilation target
 * (__CUDA_ARCH__, <nv/target>'s NV_IF_TARGET and friends, CCCL's
 * _CCCL_DEVICE_COMPILATION): parsed host-side, tfuse sees only the host's
 * branch of such code.  Text it cannot read counts as testing. */
static bool tests_target(CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile fb, fe;
  unsigned ob, oe;
  clang_getFileLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
  clang_getFileLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
  size_t size = 0;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  const char *t = fb && fe && clang_File_isEqual(fb, fe) ? clang_getFileContents(tu, fb, &size) : NULL;
  if (!t || oe < ob || oe > size)
    return true;
  return target_text_tests(t, ob, oe);
}

bool unit_load_body(Unit *u, Sym *fn) {
  if (fn->body || !fn->ext_def)
    return fn->body != NULL;
  CXCursor def = *(CXCursor *)fn->ext_def;
  fn->ext_def = NULL; /* once, and not again while its own body is built */
  Node *f = build(u, def, NULL);
  for (int i = 0; i < f->nkid; i++)
    if (f->kid[i]->kind == N_COMPOUND)
      fn->body = f->kid[i];
  if (!fn->body)
    return false;
  fn->fn_decl = f;
  fn->arch_dependent = tests_target(def);
  /* What its text reaches, compared side by side (target.c). */
  CXSourceRange r = clang_getCursorExtent(def);
  CXFile fb, fe;
  unsigned ob, oe;
  clang_getFileLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
  clang_getFileLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
  size_t size = 0;
  const char *t = fb && fe && clang_File_isEqual(fb, fe) ? clang_getFileContents(clang_Cursor_getTranslationUnit(def), fb, &size) : NULL;
  if (t && ob <= oe && oe <= size)
    target_mark_external(u, fn, t, ob, oe);
  vec_push(&u->extern_functions, f);
  return true;
}

static void import_function(Unit *u, CXCursor c) {
  Node *fn = build(u, c, NULL);
  if (!fn->sym)
    return;
  bool has_body = false;
  for (int i = 0; i < fn->nkid; i++)
    if (fn->kid[i]->kind == N_COMPOUND)
      has_body = true;
  if (has_body && clang_isCursorDefinition(c)) {
    fn->sym->fn_decl = fn;
    fn->sym->ext_def = NULL;
    fn->sym->arch_dependent = tests_target(c);
    for (int i = 0; i < fn->nkid; i++)
      if (fn->kid[i]->kind == N_COMPOUND)
        fn->sym->body = fn->kid[i];
    vec_push(&u->functions, fn);
  } else {
    vec_push(&u->fn_decls, fn);
  }
}

/* ---- macros (for passes/macros.c) ---- */

/* The Macro of a definition cursor, made once per translation unit: its
 * name, parameters and body tokens. */
static Macro *macro_of(Unit *u, CXCursor def) {
  int tu = impl_of(u)->cur;
  char *name = take_string(clang_getCursorSpelling(def));
  unsigned off = 0;
  CXFile f;
  clang_getSpellingLocation(clang_getCursorLocation(def), &f, NULL, NULL, &off);
  char *file = f ? take_string(clang_getFileName(f)) : arena_strdup("");
  for (int i = u->macros.len - 1; i >= 0; i--) { /* this translation unit's, the last ones */
    Macro *m = u->macros.items[i];
    if (m->tu != tu)
      break;
    if (m->def_off == off && !strcmp(m->name, name) && !strcmp(m->file, file))
      return m;
  }
  Macro *m = arena_alloc(sizeof *m);
  m->name = name;
  m->file = file;
  m->def_off = off;
  m->tu = tu;
  if (!loc_in_main(impl_of(u), clang_getCursorLocation(def), &m->def_at))
    m->def_at = ~0u;
  m->func_like = clang_Cursor_isMacroFunctionLike(def);
  int nt;
  char **t = token_spellings(def, &nt);
  int i = 1; /* t[0] is the name */
  if (m->func_like && i < nt && !strcmp(t[i], "(")) {
    m->params = arena_alloc(sizeof(char *) * (size_t)nt);
    for (i++; i < nt && strcmp(t[i], ")"); i++) {
      if (!strcmp(t[i], ","))
        continue;
      if (!strcmp(t[i], "...")) {
        m->variadic = true;
        continue;
      }
      m->params[m->nparams++] = t[i];
    }
    i++;
  }
  m->body = t + (i < nt ? i : nt);
  m->nbody = i < nt ? nt - i : 0;
  vec_push(&u->macros, m);
  return m;
}

static void import_macro_use(Unit *u, CXCursor c) {
  Impl *im = impl_of(u);
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned b, e;
  if (!loc_in_main(im, clang_getRangeStart(r), &b) || !loc_in_main(im, clang_getRangeEnd(r), &e) || e <= b)
    return;
  CXCursor def = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_MacroDefinition)
    return;
  MacroUse *mu = arena_alloc(sizeof *mu);
  mu->begin = b;
  mu->end = e;
  mu->macro = macro_of(u, def);
  mu->tu = im->cur;
  mu->tok = token_spellings(c, &mu->ntok);
  vec_push(&u->macro_uses, mu);
}

/* Moves each extent that ends at the start of a macro use to the end of
 * the longest use starting there (the outermost one). */
static void fix_macro_ends(Unit *u) {
  Impl *im = impl_of(u);
  for (int i = 0; i < im->macro_ends.len; i++) {
    Node *n = im->macro_ends.items[i];
    unsigned end = n->end;
    for (int j = 0; j < u->macro_uses.len; j++) {
      MacroUse *mu = u->macro_uses.items[j];
      if (mu->begin == n->end && mu->end > end)
        end = mu->end;
    }
    n->end = end;
  }
  vec_free(&im->macro_ends);
}

static enum CXChildVisitResult kernel_ref_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(d);
    if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && cursor_attrs(d).global) {
      *(bool *)data = true;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

/* Whether a declaration's text names a __global__ function. */
static bool names_a_kernel(CXCursor c) {
  bool found = false;
  clang_visitChildren(c, kernel_ref_visit, &found);
  return found;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data) {
  Unit *u = data;
  Impl *im = impl_of(u);
  /* Macro definitions of the user's headers too: macros.c expands uses
   * whose bodies name other macros. */
  if (clang_getCursorKind(c) == CXCursor_MacroDefinition &&
      !clang_Location_isInSystemHeader(clang_getCursorLocation(c))) {
    macro_of(u, c);
    return CXChildVisit_Continue;
  }
  unsigned off;
  if (!loc_in_main(im, clang_getCursorLocation(c), &off))
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (is_function_kind(k)) {
    /* A header's functions are imported from the first input that includes it. */
    if (first_sight(im, off))
      import_function(u, c);
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_MacroExpansion) {
    import_macro_use(u, c);
    return CXChildVisit_Continue;
  }
  switch (k) {
  case CXCursor_Namespace:
  case CXCursor_LinkageSpec:
  case CXCursor_ClassDecl:
  case CXCursor_StructDecl:
  case CXCursor_ClassTemplate:
  case CXCursor_UnexposedDecl:
    return CXChildVisit_Recurse;
  case CXCursor_VarDecl:
    /* Namespace-scope variables: create their symbols now; one whose
     * initializer names a kernel (a registry of kernel pointers) is kept
     * as a tree, for launch.c's uses of kernels. */
    sym_for(u, c);
    if (names_a_kernel(c) && first_sight(im, off))
      vec_push(&u->global_vars, build(u, c, NULL));
    return CXChildVisit_Continue;
  default:
    return CXChildVisit_Continue;
  }
}

static const char *severity_name(enum CXDiagnosticSeverity s) {
  return s >= CXDiagnostic_Error ? "error" : s == CXDiagnostic_Warning ? "warning" : "note";
}

/* What tfuse adds to an error of clang's that nvcc does not give, so that
 * the user knows the file is valid CUDA that tfuse cannot read. */
static const char *clang_only_note(const char *msg) {
  if (!strcmp(msg, "initialization is not supported for __shared__ variables"))
    return " (nvcc accepts a __shared__ variable whose type's constructor or destructor is not empty, with a "
           "warning, and runs neither; clang, tfuse's parser, rejects it, so tfuse cannot read this file)";
  return "";
}

/* Forwards the compiler's errors in our format, each once (a header's
 * errors come from every input that includes it). */
static int forward_diagnostics(Unit *u) {
  Impl *im = impl_of(u);
  int errors = 0;
  Vec said = {0};
  for (int t = 0; t < im->ntus; t++) {
    set_tu(im, t);
    unsigned n = clang_getNumDiagnostics(im->tus[t]);
    for (unsigned i = 0; i < n; i++) {
      CXDiagnostic d = clang_getDiagnostic(im->tus[t], i);
      enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
      if (sev >= CXDiagnostic_Error) {
        errors++;
        CXString msg = clang_getDiagnosticSpelling(d);
        CXSourceLocation loc = clang_getDiagnosticLocation(d);
        CXFile f;
        unsigned line, col, off;
        clang_getExpansionLocation(loc, &f, &line, &col, NULL);
        CXString fname = clang_getFileName(f);
        const char *key = arena_printf("%s:%u:%u:%s", clang_getCString(fname) ? real_path(clang_getCString(fname))
                                                                              : "", line, col, clang_getCString(msg));
        bool again = false;
        for (int j = 0; j < said.len && !again; j++)
          again = !strcmp(said.items[j], key);
        if (!again) {
          vec_push(&said, (void *)key);
          const char *note = clang_only_note(clang_getCString(msg));
          if (loc_in_main(im, loc, &off))
            error_at(off, "%s%s", clang_getCString(msg), note);
          else if (clang_getCString(fname)) {
            fprintf(stderr, "%s:%u:%u: %s: %s%s\n", clang_getCString(fname), line, col, severity_name(sev),
                    clang_getCString(msg), note);
            diag_keep_first_error(clang_getCString(msg));
          }
          else
            error_plain("%s%s", clang_getCString(msg), note);
        }
        clang_disposeString(fname);
        clang_disposeString(msg);
      }
      clang_disposeDiagnostic(d);
    }
  }
  vec_free(&said);
  return errors;
}

/* A header an input includes: a file of the project if it lies under the
 * root and is a system header for no input. */
typedef struct {
  const char *real, *name;
  bool system;
  CXTranslationUnit tu; /* one that includes it */
  CXFile file;
} Header;

static void include_visit(CXFile included, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  IncludeScan *sc = data;
  if (depth == 0)
    return; /* the input itself */
  CXString name = clang_getFileName(included);
  const char *nm = arena_strdup(clang_getCString(name) ? clang_getCString(name) : "");
  clang_disposeString(name);
  const char *real = real_path(nm);
  if (!path_under(sc->im->project->root, real))
    return;
  bool system = clang_Location_isInSystemHeader(clang_getLocationForOffset(sc->tu, included, 0));
  Reach *r = arena_alloc(sizeof *r);
  r->real = real;
  clang_getFileLocation(stack[depth - 1], NULL, NULL, NULL, &r->at); /* the #include in the input */
  vec_push(sc->included, r);
  for (int i = 0; i < sc->headers->len; i++) {
    Header *h = sc->headers->items[i];
    if (!strcmp(h->real, real)) {
      h->system |= system;
      return;
    }
  }
  Header *h = arena_alloc(sizeof *h);
  h->real = real;
  h->name = nm;
  h->system = system;
  h->tu = sc->tu;
  h->file = included;
  vec_push(sc->headers, h);
}

static int cmp_header(const void *a, const void *b) {
  return strcmp((*(Header *const *)a)->real, (*(Header *const *)b)->real);
}

/* The text libclang parsed for file f, as the project's file `path`. */
static Source *file_text(CXTranslationUnit tu, CXFile f, const char *path) {
  size_t size = 0;
  const char *text = f ? clang_getFileContents(tu, f, &size) : NULL;
  Source *src = arena_alloc(sizeof *src);
  if (text)
    source_set_text(src, path, text, size);
  else if (!source_load(src, path)) /* libclang has no buffer for it: the file as it is now */
    source_set_text(src, path, "", 0);
  return src;
}

/* The files of the project: the inputs, then their headers under the root
 * that no input includes as a system header, by path; and their text. */
static void find_files(Impl *im, Project *p) {
  Vec headers = {0};
  for (int i = 0; i < im->ntus; i++) {
    Input *in = p->inputs.items[i];
    vec_push(&p->files, file_text(im->tus[i], clang_getFile(im->tus[i], in->path), in->path));
    vec_push(&im->reals, (void *)in->real);
    IncludeScan sc = {im, im->tus[i], &headers, &im->tu_files[i]};
    clang_getInclusions(im->tus[i], include_visit, &sc);
  }
  if (headers.len > 1)
    qsort(headers.items, (size_t)headers.len, sizeof(void *), cmp_header);
  for (int i = 0; i < headers.len; i++) {
    Header *h = headers.items[i];
    bool input = false;
    for (int j = 0; j < im->reals.len && !input; j++)
      input = !strcmp(im->reals.items[j], h->real);
    if (h->system || input)
      continue;
    vec_push(&p->files, file_text(h->tu, h->file, h->name));
    vec_push(&im->reals, (void *)h->real);
  }
  vec_free(&headers);
  source_join(&p->text, &p->files, p->inputs.len == 1 ? ((Input *)p->inputs.items[0])->path : "the files given");
  /* Each translation unit's files of the project, and where it includes them. */
  for (int t = 0; t < im->ntus; t++) {
    Vec reached = im->tu_files[t];
    Source *input = p->files.items[t];
    im->tu_files[t] = (Vec){0};
    Reach *self = arena_alloc(sizeof *self);
    self->file = input;
    vec_push(&im->tu_files[t], self);
    for (int i = 0; i < reached.len; i++) {
      Reach *r = reached.items[i];
      for (int j = p->inputs.len; j < im->reals.len && !r->file; j++)
        if (!strcmp(r->real, im->reals.items[j]))
          r->file = p->files.items[j];
      if (r->file) {
        r->at += input->base;
        vec_push(&im->tu_files[t], r);
      }
    }
    vec_free(&reached);
  }
}

bool parse_project(Unit *u, Project *p, const Options *opt) {
  Impl *im = calloc(1, sizeof *im);
  u->impl = im;
  u->src = &p->text;
  im->project = p;
  /* Afresh: a second parse (after macros.c) finds the files again. */
  vec_free(&p->files);
  vec_free(&p->text.parts);
  p->text = (Source){0};
  im->index = clang_createIndex(0, 0);
  im->tus = calloc((size_t)(p->inputs.len ? p->inputs.len : 1), sizeof *im->tus);
  im->tu_files = calloc((size_t)(p->inputs.len ? p->inputs.len : 1), sizeof(Vec));
  im->tu_skipped = calloc((size_t)(p->inputs.len ? p->inputs.len : 1), sizeof(Vec));
  bool ok = true;
  for (int i = 0; i < p->inputs.len; i++) {
    const Input *in = p->inputs.items[i];
    Vec args = {0};
    parser_args(in, opt, &args, false);
    if (opt->verbose) {
      fprintf(stderr, "tfuse: parsing %s with:", in->path);
      for (int j = 0; j < args.len; j++)
        fprintf(stderr, " %s", (char *)args.items[j]);
      fputc('\n', stderr);
    }
    ok &= parse_input(im->index, in, &args, &p->texts, PARSE_FLAGS, &im->tus[im->ntus++], false);
    vec_free(&args);
  }
  if (!ok)
    return false;
  find_files(im, p);
  if (forward_diagnostics(u) > 0)
    return false;
  for (int i = 0; i < im->ntus; i++) {
    set_tu(im, i);
    clang_visitChildren(clang_getTranslationUnitCursor(im->tus[i]), top_visit, u);
    skipped_ranges(im, im->tus[i], &im->tu_skipped[i]);
  }
  fix_macro_ends(u);
  macro_arg_pastes(u);
  target_inputs(u, p, opt, &im->targets);
  target_mark(u, &im->targets);
  return true;
}

bool unit_is_skipped(const Unit *u, unsigned off) {
  Impl *im = impl_of(u);
  if (!im)
    return false;
  const Source *f = source_file_at(u->src, off);
  bool seen = false;
  for (int t = 0; t < im->ntus; t++) {
    bool includes = false;
    for (int i = 0; i < im->tu_files[t].len && !includes; i++)
      includes = ((Reach *)im->tu_files[t].items[i])->file == f;
    if (!includes)
      continue;
    seen = true;
    bool skipped = false;
    for (int i = 0; i < im->tu_skipped[t].len && !skipped; i++) {
      unsigned *r = im->tu_skipped[t].items[i];
      skipped = r[0] <= off && off < r[1];
    }
    if (!skipped)
      return false; /* active for this input */
  }
  return seen;
}

bool unit_precedes(const Unit *u, unsigned def, unsigned at) {
  const Source *fd = source_file_at(u->src, def), *fa = source_file_at(u->src, at);
  if (fd == fa)
    return def < at;
  Impl *im = impl_of(u);
  for (int t = 0; im && t < im->ntus; t++) {
    if (im->project->files.items[t] != fa)
      continue; /* `at` is in a header, which inputs may include after other files, or not */
    for (int i = 1; i < im->tu_files[t].len; i++) {
      Reach *r = im->tu_files[t].items[i];
      if (r->file == fd && r->at < at)
        return true;
    }
  }
  return false;
}

bool parse_project_errors(const Project *p, const Vec *texts, const Options *opt, Vec *out) {
  CXIndex index = clang_createIndex(0, 0);
  bool ok = true;
  for (int t = 0; t < p->inputs.len && ok; t++) {
    const Input *in = p->inputs.items[t];
    Vec args = {0};
    parser_args(in, opt, &args, false);
    CXTranslationUnit tu = NULL;
    ok = parse_input(index, in, &args, texts, CXTranslationUnit_KeepGoing, &tu, false);
    vec_free(&args);
    unsigned n = ok ? clang_getNumDiagnostics(tu) : 0;
    for (unsigned i = 0; i < n; i++) {
      CXDiagnostic d = clang_getDiagnostic(tu, i);
      if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
        Buf b = {0};
        CXString msg = clang_getDiagnosticSpelling(d);
        buf_puts(&b, clang_getCString(msg));
        clang_disposeString(msg);
        CXDiagnosticSet notes = clang_getChildDiagnostics(d);
        for (unsigned j = 0; j < clang_getNumDiagnosticsInSet(notes); j++) {
          CXDiagnostic nd = clang_getDiagnosticInSet(notes, j);
          CXString nm = clang_getDiagnosticSpelling(nd);
          buf_printf(&b, "\n%s", clang_getCString(nm));
          clang_disposeString(nm);
          clang_disposeDiagnostic(nd);
        }
        bool again = false; /* a header's error, from every input that includes it */
        for (int j = 0; j < out->len && !again; j++)
          again = !strcmp(out->items[j], b.data);
        if (!again)
          vec_push(out, arena_strdup(b.data));
        buf_free(&b);
      }
      clang_disposeDiagnostic(d);
    }
    if (tu)
      clang_disposeTranslationUnit(tu);
  }
  clang_disposeIndex(index);
  return ok;
}

void parse_dispose(Unit *u) {
  target_dispose(u);
  Impl *im = impl_of(u);
  if (!im)
    return;
  device_dispose(im);
  vec_free(&im->targets);
  for (int i = 0; i < im->ntus; i++)
    if (im->tus[i])
      clang_disposeTranslationUnit(im->tus[i]);
  free(im->tus);
  free(im->tu_files);
  free(im->tu_skipped);
  free(im->files);
  free(im->seen);
  vec_free(&im->reals);
  build_dispose(im);
  if (im->index)
    clang_disposeIndex(im->index);
  free(im->table);
  free(im);
  u->impl = NULL;
}

static const char *kind_names[] = {
#define X(name) #name,
#include "nodekinds.def"
#undef X
};

void node_dump(const Unit *u, const Node *n, int depth, Buf *out) {
  int line, col;
  const char *path;
  source_locate(u->src, n->begin, &path, &line, &col);
  buf_printf(out, "%*s%s", depth * 2, "", kind_names[n->kind] + 2);
  if (n->spelling && n->spelling[0])
    buf_printf(out, " '%s'", n->spelling);
  if (n->kind == N_BUILTIN)
    buf_printf(out, " %s.%s", n->bi == BI_THREADIDX ? "threadIdx" : n->bi == BI_BLOCKIDX ? "blockIdx"
                                : n->bi == BI_BLOCKDIM ? "blockDim" : "gridDim",
               n->bi_dim >= 0 ? dim_name(n->bi_dim) : "?");
  if (depth == 0 && u->src->parts.len > 1 && source_file_at(u->src, n->begin) != u->src->parts.items[0]) {
    /* a function of another file than the first input: which */
    const char *slash = strrchr(path, '/');
    buf_printf(out, " <%s:%d:%d>", slash ? slash + 1 : path, line, col);
  } else {
    buf_printf(out, " <%d:%d>", line, col);
  }
  if (n->varying)
    buf_puts(out, " varying");
  if (n->loop_varying)
    buf_puts(out, " varying-control");
  if (n->has_vreturn)
    buf_puts(out, " varying-return");
  if (n->sym && (n->kind == N_VAR || n->kind == N_PARAM))
    buf_printf(out, " %s", n->sym->varying ? "[varying]" : "[uniform]");
  buf_puts(out, "\n");
  for (int i = 0; i < n->nkid; i++)
    node_dump(u, n->kid[i], depth + 1, out);
}

/* The spelling of an arithmetic type (Node.type_arith), or NULL for one
 * without a plain C++ spelling (__int128, long double, the halves). */
const char *arith_type_spelling(int kind) {
  switch ((enum CXTypeKind)kind) {
  case CXType_Bool: return "bool";
  case CXType_Char_U: case CXType_Char_S: return "char";
  case CXType_UChar: return "unsigned char";
  case CXType_SChar: return "signed char";
  case CXType_Char16: return "char16_t";
  case CXType_Char32: return "char32_t";
  case CXType_WChar: return "wchar_t";
  case CXType_UShort: return "unsigned short";
  case CXType_UInt: return "unsigned int";
  case CXType_ULong: return "unsigned long";
  case CXType_ULongLong: return "unsigned long long";
  case CXType_Short: return "short";
  case CXType_Int: return "int";
  case CXType_Long: return "long";
  case CXType_LongLong: return "long long";
  case CXType_Float: return "float";
  case CXType_Double: return "double";
  default: return NULL;
  }
}
