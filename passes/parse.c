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
 * kernel of a header and its launches in two inputs meet.  This is the
 * only file that sees libclang's CX* types (with tool/compdb.c): the other
 * passes work on Node and Sym.  Parse errors are the compiler's own
 * diagnostics, forwarded with their location, once each.
 *
 * CUDA is parsed host-side (--cuda-host-only): device function bodies are
 * still fully analysed by clang, and the launches exist only on the host
 * side.  `threadIdx.x` reaches us as a MemberRefExpr over a DeclRefExpr to
 * the builtin variable; it becomes one N_BUILTIN node. */
#define _GNU_SOURCE /* dladdr */
#include "passes.h"

#include <clang-c/Index.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file of the project that a translation unit includes, and where: the
 * #include in the input that brings it in (directly or not). */
typedef struct {
  const char *real; /* its real path (while the files are found) */
  Source *file;
  unsigned at;      /* the #include's offset, in the input's text, then in the project's */
} Reach;

/* A file libclang names, and the project's file it is (NULL: none). */
typedef struct {
  CXFile file;
  Source *src;
} FileSlot;

typedef struct {
  CXIndex index;
  CXTranslationUnit *tus; /* one per input */
  int ntus;
  int cur;                /* the translation unit being read */
  Project *project;
  Vec reals;              /* char*: the real path of each of project->files */
  /* Per translation unit: the project's files it includes (Reach*, the
   * input first), and the ranges its preprocessor skipped in them
   * (unsigned[2], project offsets). */
  Vec *tu_files, *tu_skipped;
  /* CXFile -> project file, for the current translation unit (open addressing). */
  FileSlot *files;
  size_t fcap, fcount;
  /* Offsets of the declarations imported, so that a header's are imported once. */
  unsigned *seen;
  size_t scap, scount;
  /* USR -> Sym, open addressing: one table for all translation units. */
  Sym **table;
  size_t cap, count;
  Vec macro_ends; /* Node*: extents that end inside a macro use (fixed after the visit) */
  Vec macro_args; /* Node*: builtins spelled in a macro's argument (macro_arg_builtin, checked after the visit) */
  Vec member_scans; /* MemberScan*: the methods of each name a dependent member call named (one input) */
  Vec targets;      /* TargetInput*: the two sides' readings (target.c), kept while the unit is */
} Impl;

static Impl *impl_of(const Unit *u) { return u->impl; }

/* ---- symbols ---- */

static Sym **sym_slot(Impl *im, const char *usr) {
  if (im->count * 2 >= im->cap) {
    size_t ncap = im->cap ? im->cap * 2 : 1024;
    Sym **nt = calloc(ncap, sizeof(Sym *));
    for (size_t i = 0; i < im->cap; i++) {
      Sym *s = im->table[i];
      if (!s)
        continue;
      size_t j = str_hash(s->usr) & (ncap - 1);
      while (nt[j])
        j = (j + 1) & (ncap - 1);
      nt[j] = s;
    }
    free(im->table);
    im->table = nt;
    im->cap = ncap;
  }
  size_t j = str_hash(usr) & (im->cap - 1);
  while (im->table[j] && strcmp(im->table[j]->usr, usr))
    j = (j + 1) & (im->cap - 1);
  return &im->table[j];
}

static char *take_string(CXString s) {
  char *r = arena_strdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}

static bool dependent_class(CXType t);

static CgGroup cg_group_of(const char *ts, int *tile, CgGroup *parent);

/* The class of a tile's ParentT, spelled from `p` up to the `>` that closes
 * the tile's template arguments. */
static CgGroup cg_parent_of(const char *p) {
  while (*p == ' ')
    p++;
  size_t len = 0;
  for (int depth = 0; p[len] && (depth || p[len] != '>'); len++)
    depth += p[len] == '<' ? 1 : p[len] == '>' ? -1 : 0;
  int tile;
  CgGroup grand;
  return cg_group_of(arena_strndup(p, len), &tile, &grand);
}

/* A record type's spelling (canonical, qualifiers first) that names a
 * cooperative group: the block, a tile of one warp or of several, a
 * coalesced, type-erased or grid group, or another.  For a tile of at most
 * one warp, *tile gets its size and *parent the class of its ParentT
 * (`thread_block_tile<32, thread_block>`: CG_BLOCK; CG_NONE for `void`,
 * the type-erased parent of `thread_block_tile<32>`). */
static CgGroup cg_group_of(const char *ts, int *tile, CgGroup *parent) {
  *tile = 0;
  *parent = CG_NONE;
  for (bool more = true; more;) {
    more = false;
    if (!strncmp(ts, "const ", 6) || !strncmp(ts, "volatile ", 9)) {
      ts = strchr(ts, ' ') + 1;
      more = true;
    }
  }
  if (strncmp(ts, "cooperative_groups::", 20))
    return CG_NONE;
  ts += 20;
  if (!strncmp(ts, "__v", 3) && strstr(ts, "::")) /* the inline namespace, where spelled */
    ts = strstr(ts, "::") + 2;
  if (!strcmp(ts, "thread_block"))
    return CG_BLOCK;
  if (!strncmp(ts, "thread_block_tile<", 18)) {
    char *end;
    long n = strtol(ts + 18, &end, 10);
    if (end != ts + 18 && (*end == ',' || *end == '>') && n > 32)
      return CG_MULTI;
    if (end != ts + 18 && (*end == ',' || *end == '>') && n >= 1) {
      *tile = (int)n;
      *parent = *end == ',' ? cg_parent_of(end + 1) : CG_NONE;
      return CG_TILE;
    }
  }
  if (!strcmp(ts, "coalesced_group"))
    return CG_COALESCED;
  if (!strcmp(ts, "thread_group"))
    return CG_ERASED;
  if (!strcmp(ts, "grid_group"))
    return CG_GRID;
  /* Everything else in the namespace: groups (cluster, multi-grid) and the
   * library's own types (reduction operators, details): CG_OTHER says "not
   * one tfuse follows". */
  return CG_OTHER;
}

static size_t hash_ptr(const void *p) { return (size_t)(uintptr_t)p * 11400714819323198485u; }

static const char *real_path(const char *path) {
  const char *r = path_real(path);
  return r ? r : arena_strdup(path);
}

/* The project's file whose real path is real, or NULL. */
static Source *project_file_of(Impl *im, const char *real) {
  for (int i = 0; i < im->reals.len; i++)
    if (!strcmp(im->reals.items[i], real))
      return im->project->files.items[i];
  return NULL;
}

/* The project's file that libclang's file f is, or NULL. */
static Source *file_src(Impl *im, CXFile f) {
  if (!f)
    return NULL;
  if (im->fcount * 2 >= im->fcap) {
    size_t ncap = im->fcap ? im->fcap * 2 : 256;
    FileSlot *nt = calloc(ncap, sizeof *nt);
    for (size_t i = 0; i < im->fcap; i++) {
      if (!im->files[i].file)
        continue;
      size_t j = hash_ptr(im->files[i].file) & (ncap - 1);
      while (nt[j].file)
        j = (j + 1) & (ncap - 1);
      nt[j] = im->files[i];
    }
    free(im->files);
    im->files = nt;
    im->fcap = ncap;
  }
  size_t j = hash_ptr(f) & (im->fcap - 1);
  while (im->files[j].file && im->files[j].file != f)
    j = (j + 1) & (im->fcap - 1);
  if (im->files[j].file)
    return im->files[j].src;
  CXString name = clang_getFileName(f);
  const char *real = real_path(clang_getCString(name) ? clang_getCString(name) : "");
  clang_disposeString(name);
  Source *src = project_file_of(im, real);
  im->files[j].file = f;
  im->files[j].src = src;
  im->fcount++;
  return src;
}

/* Switches to translation unit i: its CXFiles are its own. */
static void set_tu(Impl *im, int i) {
  im->cur = i;
  free(im->files);
  im->files = NULL;
  im->fcap = im->fcount = 0;
}

/* Whether loc (its expansion) lies in a file of the project; *off is then
 * its offset in the project's text. */
static bool loc_in_main(Impl *im, CXSourceLocation loc, unsigned *off) {
  CXFile f;
  unsigned o;
  clang_getExpansionLocation(loc, &f, NULL, NULL, &o);
  Source *src = file_src(im, f);
  if (off)
    *off = src ? src->base + o : o;
  return src != NULL;
}

/* Marks a declaration at off imported; false if it already was. */
static bool first_sight(Impl *im, unsigned off) {
  if (im->scount * 2 >= im->scap) {
    size_t ncap = im->scap ? im->scap * 2 : 1024;
    unsigned *nt = malloc(ncap * sizeof *nt);
    for (size_t i = 0; i < ncap; i++)
      nt[i] = ~0u;
    for (size_t i = 0; i < im->scap; i++) {
      if (im->seen[i] == ~0u)
        continue;
      size_t j = hash_ptr((void *)(uintptr_t)(im->seen[i] + 1)) & (ncap - 1);
      while (nt[j] != ~0u)
        j = (j + 1) & (ncap - 1);
      nt[j] = im->seen[i];
    }
    free(im->seen);
    im->seen = nt;
    im->scap = ncap;
  }
  size_t j = hash_ptr((void *)(uintptr_t)(off + 1)) & (im->scap - 1);
  while (im->seen[j] != ~0u && im->seen[j] != off)
    j = (j + 1) & (im->scap - 1);
  if (im->seen[j] == off)
    return false;
  im->seen[j] = off;
  im->scount++;
  return true;
}

static char *canonical_spelling(CXType t) {
  CXString cs = clang_getTypeSpelling(clang_getCanonicalType(t));
  char *r = arena_strdup(clang_getCString(cs));
  clang_disposeString(cs);
  return r;
}

/* record_fp: the floating-point fields of a struct (arrays and nested
 * structs included), all of one size (4 or 8), or none (size 0). */
typedef struct {
  int size;   /* 4 or 8, 0 before the first field, -1 once it is not such a struct */
  long long n; /* the fields' bytes */
} FpFields;

static int record_fp_size(CXType t, FpFields *f);

static enum CXVisitorResult fp_field(CXCursor c, CXClientData data) {
  FpFields *f = data;
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  long long count = 1;
  while (t.kind == CXType_ConstantArray) {
    count *= clang_getArraySize(t);
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  }
  int size = t.kind == CXType_Float ? 4 : t.kind == CXType_Double ? 8 : 0;
  if (t.kind == CXType_Record) {
    FpFields inner = {0, 0};
    size = record_fp_size(t, &inner);
  }
  if (!size || (f->size && f->size != size) || clang_Cursor_isBitField(c)) {
    f->size = -1;
    return CXVisit_Break;
  }
  f->size = size;
  f->n += count * clang_Type_getSizeOf(t);
  return CXVisit_Continue;
}

/* 4 or 8 where record t holds only floats, or only doubles, with no padding
 * (-check compares its elements within the ULP tolerance); else 0. */
static int record_fp_size(CXType t, FpFields *f) {
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Record)
    return 0;
  clang_Type_visitFields(t, fp_field, f);
  return f->size > 0 && f->n == clang_Type_getSizeOf(t) ? f->size : 0;
}

/* A type kind that holds a value and nothing it refers to: a builtin, an
 * enum, a complex number, a vector. */
static bool kind_is_plain_value(enum CXTypeKind k) {
  return (k >= CXType_FirstBuiltin && k <= CXType_LastBuiltin) || k == CXType_Enum || k == CXType_Complex ||
         k == CXType_Vector || k == CXType_ExtVector;
}

static bool type_may_point(CXType t, int depth);

static enum CXChildVisitResult member_may_point(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  int *st = data; /* [0]: depth, [1]: the answer */
  enum CXCursorKind k = clang_getCursorKind(c);
  if ((k == CXCursor_FieldDecl || k == CXCursor_CXXBaseSpecifier) && type_may_point(clang_getCursorType(c), st[0])) {
    st[1] = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* Whether a value of type t may hold a pointer or a reference: one itself,
 * an array of them, a class with such a member or base; a type tfuse cannot
 * lay out (dependent, incomplete) or nested too deep may. */
static bool type_may_point(CXType t, int depth) {
  t = clang_getCanonicalType(t);
  while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  if (kind_is_plain_value(t.kind))
    return false;
  if (t.kind != CXType_Record || depth > 8)
    return true;
  CXCursor d = clang_getCursorDefinition(clang_getTypeDeclaration(t));
  if (clang_Cursor_isNull(d))
    return true;
  int st[2] = {depth + 1, 0};
  clang_visitChildren(d, member_may_point, st);
  return st[1] != 0;
}

static bool type_is_array(CXType t) {
  switch (t.kind) {
  case CXType_ConstantArray:
  case CXType_IncompleteArray:
  case CXType_VariableArray:
  case CXType_DependentSizedArray:
    return true;
  default:
    return false;
  }
}

typedef struct {
  bool shared, constant, device, global;
} Attrs;

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor parent, CXClientData data) {
  Attrs *a = data;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CUDASharedAttr: a->shared = true; break;
  case CXCursor_CUDAConstantAttr: a->constant = true; break;
  case CXCursor_CUDADeviceAttr: a->device = true; break;
  case CXCursor_CUDAGlobalAttr: a->global = true; break;
  default: break;
  }
  return CXChildVisit_Continue;
}

static Attrs cursor_attrs(CXCursor c) {
  Attrs a = {0};
  clang_visitChildren(c, attr_visit, &a);
  return a;
}

static bool is_function_kind(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

/* Whether the tokens of a range hold `tok`. */
static bool range_has_token(CXTranslationUnit tu, CXSourceRange r, const char *tok) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, r, &toks, &n);
  bool found = false;
  for (unsigned i = 0; i < n && !found; i++) {
    CXString sp = clang_getTokenSpelling(tu, toks[i]);
    found = !strcmp(clang_getCString(sp), tok);
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, toks, n);
  return found;
}

/* Whether a function's declaration says constexpr (or consteval): the
 * tokens from its start to its name.  nvcc lets device code call such a
 * function (--expt-relaxed-constexpr) though it has no __device__. */
static bool decl_is_constexpr(CXCursor decl) {
  CXSourceRange ext = clang_getCursorExtent(decl);
  CXSourceRange head = clang_getRange(clang_getRangeStart(ext), clang_getCursorLocation(decl));
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(decl);
  return range_has_token(tu, head, "constexpr") || range_has_token(tu, head, "consteval");
}

typedef struct {
  int params, defaults;
  bool pack;          /* a parameter pack: any number */
  CXSourceRange body; /* the body's extent, if a child */
} Arity;

static enum CXChildVisitResult has_expr_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(bool *)d |= clang_isExpression(clang_getCursorKind(c));
  return CXChildVisit_Continue;
}

static enum CXChildVisitResult arity_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Arity *a = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CompoundStmt)
    a->body = clang_getCursorExtent(c);
  if (k != CXCursor_ParmDecl)
    return CXChildVisit_Continue;
  a->params++;
  /* A default is an expression child; so is an array bound (`float (&a)[4]`): more defaults than there
   * are only admit more candidates. */
  bool expr = false;
  clang_visitChildren(c, has_expr_visit, &expr);
  a->defaults += expr;
  CXString ts = clang_getTypeSpelling(clang_getCursorType(c));
  a->pack |= strstr(clang_getCString(ts), "...") != NULL;
  clang_disposeString(ts);
  return CXChildVisit_Continue;
}

/* Whether a template's head (its text before the body) says `...`. */
static bool head_has_ellipsis(CXCursor decl, CXSourceRange body) {
  CXSourceRange ext = clang_getCursorExtent(decl);
  CXSourceRange head = clang_Range_isNull(body) ? ext : clang_getRange(clang_getRangeStart(ext), clang_getRangeStart(body));
  return range_has_token(clang_Cursor_getTranslationUnit(decl), head, "...");
}

/* How many arguments a call of the function `decl` (a template's too,
 * whose type clang does not give) may pass: its parameters less those
 * with a default (on the first declaration or the definition), any
 * number from there with C's `...` or a parameter pack. */
static void fn_arity(CXCursor decl, int *min, int *max) {
  Arity a = {0, 0, false, clang_getNullRange()}, b = a;
  clang_visitChildren(decl, arity_visit, &a);
  CXCursor def = clang_getCursorDefinition(decl);
  if (!clang_Cursor_isNull(def))
    clang_visitChildren(def, arity_visit, &b);
  int req = a.params - a.defaults, breq = b.params - b.defaults;
  *min = !clang_Cursor_isNull(def) && breq < req ? breq : req;
  CXType t = clang_getCursorType(decl);
  bool variadic = t.kind == CXType_FunctionProto ? clang_isFunctionTypeVariadic(t) != 0
                                                 : head_has_ellipsis(decl, a.body); /* a template */
  *max = variadic || a.pack || b.pack ? -1 : a.params;
}

/* The Sym for a declaration cursor, created on first sight. */
static Sym *sym_for(Unit *u, CXCursor decl) {
  Impl *im = impl_of(u);
  if (clang_Cursor_isNull(decl) || clang_isInvalid(clang_getCursorKind(decl)))
    return NULL;
  Sym *spec_of = NULL;
  /* An instantiation of a template is the template (its body is the
   * pattern's). An explicit specialization is a function of its own, with
   * its own body: its definition is not the template's. */
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  if (!clang_Cursor_isNull(tmpl)) {
    CXCursor def = clang_getCursorDefinition(decl), tdef = clang_getCursorDefinition(tmpl);
    bool explicit_spec = !clang_Cursor_isNull(def) && !clang_Cursor_isNull(tdef) &&
                         !clang_equalLocations(clang_getCursorLocation(def), clang_getCursorLocation(tdef));
    if (!explicit_spec)
      decl = tmpl;
    else
      spec_of = sym_for(u, tmpl);
  }
  decl = clang_getCanonicalCursor(decl);
  char *usr = take_string(clang_getCursorUSR(decl));
  char *name = take_string(clang_getCursorSpelling(decl));
  if (!usr[0])
    usr = arena_printf("tfuse@%d@%u@%s", im->cur, clang_hashCursor(decl), name);
  Sym **slot = sym_slot(im, usr);
  if (*slot)
    return *slot;
  Sym *s = arena_alloc(sizeof *s);
  s->usr = usr;
  s->name = name;
  s->spec_of = spec_of;
  s->decl_off = ~0u;
  CXSourceLocation loc = clang_getCursorLocation(decl);
  unsigned off;
  s->in_main_file = loc_in_main(im, loc, &off);
  if (s->in_main_file)
    s->decl_off = off;
  s->in_system_header = clang_Location_isInSystemHeader(loc);
  /* Compiler builtins are declared implicitly where first used. */
  if (!strncmp(name, "__builtin_", 10) || !strncmp(name, "__nvvm_", 7) || !strcmp(name, "__syncthreads")) {
    s->in_system_header = true;
    s->in_main_file = false;
    s->decl_off = ~0u;
  }

  enum CXCursorKind k = clang_getCursorKind(decl);
  CXType t = clang_getCursorType(decl);
  if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) {
    Attrs a = cursor_attrs(decl);
    CXCursor sem = clang_getCursorSemanticParent(decl);
    bool local = is_function_kind(clang_getCursorKind(sem)) || clang_getCursorKind(sem) == CXCursor_LambdaExpr;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    if (s->in_system_header && (!strcmp(name, "threadIdx") || !strcmp(name, "blockIdx") ||
                                !strcmp(name, "blockDim") || !strcmp(name, "gridDim") ||
                                !strcmp(name, "warpSize")))
      s->kind = SYM_BUILTIN;
    else if (a.shared)
      s->kind = SYM_SHARED;
    else if (k == CXCursor_ParmDecl)
      s->kind = SYM_PARAM;
    else if (local && sc != CX_SC_Static && !a.constant && !a.device)
      s->kind = SYM_LOCAL;
    else
      s->kind = SYM_GLOBAL;
    s->is_extern = sc == CX_SC_Extern;
    /* A type named through a typedef, `using` or `auto` (`typedef float F4[4];
     * __shared__ F4 t;`, `auto p = sh;`) is what its canonical type is: an
     * array, a pointer, a reference.  A dependent type stays as written. */
    CXType dt = t;
    if (!type_is_array(t) && t.kind != CXType_Pointer && t.kind != CXType_LValueReference &&
        t.kind != CXType_RValueReference && clang_getCanonicalType(t).kind != CXType_Invalid)
      dt = clang_getCanonicalType(t);
    bool sugared = dt.kind != t.kind;
    s->is_array = type_is_array(dt);
    s->is_pointer = dt.kind == CXType_Pointer;
    s->is_reference = dt.kind == CXType_LValueReference || dt.kind == CXType_RValueReference;
    CXType elem = dt;
    while (type_is_array(elem)) {
      elem = clang_getArrayElementType(elem);
      s->rank++;
    }
    /* (through a typedef the element is spelled canonically: named only
     * where it is a number or a pointer to one, for promote_emit.c) */
    CXType ce0 = clang_getCanonicalType(elem);
    bool spellable = !sugared || (ce0.kind >= CXType_Bool && ce0.kind <= CXType_LongDouble) ||
                     (ce0.kind == CXType_Pointer && clang_getCanonicalType(clang_getPointeeType(ce0)).kind >= CXType_Void &&
                      clang_getCanonicalType(clang_getPointeeType(ce0)).kind <= CXType_LongDouble);
    if (s->rank) {
      if (spellable) {
        CXString es = clang_getTypeSpelling(elem);
        s->elem_type = arena_strdup(clang_getCString(es));
        clang_disposeString(es);
      }
      CXType ce = clang_getCanonicalType(elem);
      s->elem_scalar = (ce.kind >= CXType_Bool && ce.kind <= CXType_LongDouble) || ce.kind == CXType_Pointer ||
                       ce.kind == CXType_Half || ce.kind == CXType_Float16 || ce.kind == CXType_Enum;
    }
    CXType ct = clang_getCanonicalType(t);
    s->is_scalar = (ct.kind >= CXType_Bool && ct.kind <= CXType_LongDouble) || ct.kind == CXType_Pointer ||
                   ct.kind == CXType_Enum;
    s->bytes = clang_Type_getSizeOf(ct);
    if (s->bytes < 0)
      s->bytes = -1;
    if ((ct.kind >= CXType_Char_U && ct.kind <= CXType_Int128) && clang_Type_getSizeOf(ct) > 0)
      s->int_bytes = (int)clang_Type_getSizeOf(ct);
    if (dt.kind == CXType_Pointer) {
      s->pointee_const = clang_isConstQualifiedType(clang_getPointeeType(dt));
      FpFields fp = {0, 0};
      s->pointee_fp = (unsigned char)record_fp_size(clang_getPointeeType(dt), &fp);
    }
    s->is_volatile = clang_isVolatileQualifiedType(elem) || clang_isVolatileQualifiedType(t) ||
                     (dt.kind == CXType_Pointer && clang_isVolatileQualifiedType(clang_getPointeeType(dt)));
    s->is_const = clang_isConstQualifiedType(elem);
    s->type_dependent = clang_Type_getSizeOf(ct) == CXTypeLayoutError_Dependent;
    if (s->bytes < 0) {
      CXString ts = clang_getTypeSpelling(t);
      s->type_text = arena_strdup(clang_getCString(ts));
      clang_disposeString(ts);
    }
  } else if (is_function_kind(k)) {
    Attrs a = cursor_attrs(decl);
    s->kind = SYM_FUNC;
    /* Parameters the callee may write through: pointers to non-const and
     * non-const references. */
    CXType ft = clang_getCursorType(decl);
    s->fn_type = canonical_spelling(ft);
    int np = clang_getNumArgTypes(ft);
    s->nparams = np;
    fn_arity(decl, &s->arity_min, &s->arity_max);
    for (int i = 0; i < np && i < 32; i++) {
      CXType pt = clang_getCanonicalType(clang_getArgType(ft, (unsigned)i));
      bool out = false;
      if (pt.kind == CXType_Pointer || pt.kind == CXType_LValueReference || pt.kind == CXType_RValueReference)
        out = !clang_isConstQualifiedType(clang_getPointeeType(pt));
      if (out)
        s->out_params |= 1u << i;
      if (out && pt.kind != CXType_Pointer)
        s->ref_params |= 1u << i;
      if (pt.kind == CXType_LValueReference || pt.kind == CXType_RValueReference)
        s->byref_params |= 1u << i;
      if (!out && clang_Type_getSizeOf(pt) == CXTypeLayoutError_Dependent && !dependent_class(pt))
        s->dep_params |= 1u << i; /* `T p`: a pointer if T is one */
    }
    /* Cooperative groups' functions take their values by forwarding
     * reference (`TyVal &&`) and write none of them, but for match_all's
     * predicate; what the rest may do is effects.c's table (cg_class). */
    if (sym_is_cooperative_groups(s) && strcmp(name, "match_all"))
      s->out_params = s->ref_params = s->dep_params = 0;
    s->is_global_fn = a.global;
    s->is_device_fn = a.device;
    s->is_ctor = k == CXCursor_Constructor;
    s->is_defaulted = clang_CXXMethod_isDefaulted(decl) != 0;
    enum CXTypeKind rk = clang_getCanonicalType(clang_getResultType(ft)).kind;
    /* A value only where the result's type says so (a builtin, a pointer, a
     * class, an enum, a vector); a reference, and `auto`, `decltype(auto)`,
     * a dependent or unknown result, may be one. */
    s->returns_ref = !(kind_is_plain_value(rk) || rk == CXType_Pointer || rk == CXType_Record ||
                       rk == CXType_MemberPointer);
    enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(decl));
    bool in_class = pk == CXCursor_StructDecl || pk == CXCursor_ClassDecl || pk == CXCursor_ClassTemplate ||
                    pk == CXCursor_ClassTemplatePartialSpecialization || pk == CXCursor_UnionDecl;
    if (k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction || k == CXCursor_Destructor ||
        (k == CXCursor_FunctionTemplate && in_class)) {
      s->is_method = !clang_CXXMethod_isStatic(decl);
      s->is_const_method = clang_CXXMethod_isConst(decl);
      CXCursor cls = clang_getCursorSemanticParent(decl);
      s->class_may_point = pk == CXCursor_ClassTemplate || pk == CXCursor_ClassTemplatePartialSpecialization ||
                           type_may_point(clang_getCursorType(cls), 0);
    }
    /* Attributes may sit on a later redeclaration (the definition). */
    CXCursor def = clang_getCursorDefinition(decl);
    if (!clang_Cursor_isNull(def)) {
      Attrs b = cursor_attrs(def);
      s->is_global_fn |= b.global;
      s->is_device_fn |= b.device;
      unsigned doff;
      if (!loc_in_main(im, clang_getCursorLocation(def), &doff)) {
        /* Defined in a header: unit_load_body builds it when an analysis needs it. */
        CXCursor *h = arena_alloc(sizeof *h);
        *h = def;
        s->ext_def = h;
      }
    }
    s->host_only = !s->is_device_fn && !s->is_global_fn && !s->is_defaulted && !decl_is_constexpr(decl) &&
                   (clang_Cursor_isNull(def) || !decl_is_constexpr(def));
  } else {
    s->kind = SYM_OTHER;
  }
  /* Looked up again: nothing above inserts, but the table's slots are
   * only valid until the next insertion, and a stale one is a lost symbol. */
  slot = sym_slot(im, usr);
  *slot = s;
  im->count++;
  return s;
}

/* ---- nodes ---- */

/* The construct table (constructs.def): one row per cursor kind tfuse
 * understands, the node kind it maps to and its rule. */
static const struct {
  enum CXCursorKind cursor;
  NodeKind kind;
  Construct row;
} construct_rows[] = {
#define C(cursor, nkind, rule, name, model) {cursor, nkind, {name, model, CONSTRUCT_##rule}},
#include "constructs.def"
#undef C
};
enum { N_CONSTRUCT_ROWS = sizeof construct_rows / sizeof construct_rows[0] };

/* A GNU atomic builtin (`__atomic_fetch_add(p, v, order)`) is an
 * expression libclang does not expose: its own row, found by its name. */
static const Construct atomic_builtin_row = {
    "GNU atomic builtin", "writes through its pointer operand where no call is seen: not modelled",
    CONSTRUCT_REFUSE};

static int construct_index(enum CXCursorKind k) {
  for (int i = 0; i < N_CONSTRUCT_ROWS; i++)
    if (construct_rows[i].cursor == k)
      return i;
  return -1;
}

const Construct *construct_of(const Node *n) {
  if (n->construct == CONSTRUCT_ATOMIC_BUILTIN)
    return &atomic_builtin_row;
  return n->construct >= 0 && n->construct < N_CONSTRUCT_ROWS ? &construct_rows[n->construct].row : NULL;
}

/* Whether the expression libclang does not expose at c is a GNU atomic
 * builtin: its first token names one. */
static bool is_atomic_builtin(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *t = clang_getToken(tu, clang_getRangeStart(clang_getCursorExtent(c)));
  if (!t)
    return false;
  bool hit = false;
  if (clang_getTokenKind(*t) == CXToken_Identifier) {
    CXString sp = clang_getTokenSpelling(tu, *t);
    const char *w = clang_getCString(sp);
    static const char *const prefixes[] = {"__atomic_", "__c11_atomic_", "__scoped_atomic_", "__hip_atomic_",
                                           "__opencl_atomic_", NULL};
    for (int i = 0; w && prefixes[i] && !hit; i++)
      hit = !strncmp(w, prefixes[i], strlen(prefixes[i]));
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, t, 1);
  return hit;
}

static Op map_binop(enum CXBinaryOperatorKind k) {
  switch (k) {
  case CXBinaryOperator_Mul: return OP_MUL;
  case CXBinaryOperator_Div: return OP_DIV;
  case CXBinaryOperator_Rem: return OP_REM;
  case CXBinaryOperator_Add: return OP_ADD;
  case CXBinaryOperator_Sub: return OP_SUB;
  case CXBinaryOperator_Shl: return OP_SHL;
  case CXBinaryOperator_Shr: return OP_SHR;
  case CXBinaryOperator_LT: return OP_LT;
  case CXBinaryOperator_GT: return OP_GT;
  case CXBinaryOperator_LE: return OP_LE;
  case CXBinaryOperator_GE: return OP_GE;
  case CXBinaryOperator_EQ: return OP_EQ;
  case CXBinaryOperator_NE: return OP_NE;
  case CXBinaryOperator_And: return OP_AND;
  case CXBinaryOperator_Xor: return OP_XOR;
  case CXBinaryOperator_Or: return OP_OR;
  case CXBinaryOperator_LAnd: return OP_LAND;
  case CXBinaryOperator_LOr: return OP_LOR;
  case CXBinaryOperator_Assign: return OP_ASSIGN;
  case CXBinaryOperator_MulAssign: return OP_MUL_ASSIGN;
  case CXBinaryOperator_DivAssign: return OP_DIV_ASSIGN;
  case CXBinaryOperator_RemAssign: return OP_REM_ASSIGN;
  case CXBinaryOperator_AddAssign: return OP_ADD_ASSIGN;
  case CXBinaryOperator_SubAssign: return OP_SUB_ASSIGN;
  case CXBinaryOperator_ShlAssign: return OP_SHL_ASSIGN;
  case CXBinaryOperator_ShrAssign: return OP_SHR_ASSIGN;
  case CXBinaryOperator_AndAssign: return OP_AND_ASSIGN;
  case CXBinaryOperator_XorAssign: return OP_XOR_ASSIGN;
  case CXBinaryOperator_OrAssign: return OP_OR_ASSIGN;
  case CXBinaryOperator_Comma: return OP_COMMA;
  default: return OP_OTHER;
  }
}

static Op map_unop(enum CXUnaryOperatorKind k) {
  switch (k) {
  case CXUnaryOperator_PostInc: return OP_POST_INC;
  case CXUnaryOperator_PostDec: return OP_POST_DEC;
  case CXUnaryOperator_PreInc: return OP_PRE_INC;
  case CXUnaryOperator_PreDec: return OP_PRE_DEC;
  case CXUnaryOperator_AddrOf: return OP_ADDR;
  case CXUnaryOperator_Deref: return OP_DEREF;
  case CXUnaryOperator_Plus: return OP_PLUS;
  case CXUnaryOperator_Minus: return OP_MINUS;
  case CXUnaryOperator_Not: return OP_NOT;
  case CXUnaryOperator_LNot: return OP_LNOT;
  default: return OP_OTHER;
  }
}

typedef struct {
  Unit *u;
  Node *parent;
  Vec kids;
} BuildCtx;

static Node *build(Unit *u, CXCursor c, Node *parent);

static enum CXChildVisitResult first_child_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  *(CXCursor *)data = c;
  return CXChildVisit_Break;
}

static enum CXChildVisitResult build_visit(CXCursor c, CXCursor parent, CXClientData data) {
  BuildCtx *bc = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (clang_isAttribute(k))
    return CXChildVisit_Continue;
  Node *n = build(bc->u, c, bc->parent);
  if (n)
    vec_push(&bc->kids, n);
  return CXChildVisit_Continue;
}

/* Splits the header of if/for/while/switch/do into its parts by where each
 * child lies relative to the parentheses (libclang omits absent parts). */
static void fill_control_parts(const Source *src, Node *n) {
  if (n->kind == N_DO) {
    if (n->nkid == 2) {
      n->body = n->kid[0];
      n->cond = n->kid[1];
    }
    return;
  }
  if (n->kind == N_ATTRIBUTED) {
    if (n->nkid == 1)
      n->body = n->kid[0];
    return;
  }
  if (n->kind != N_IF && n->kind != N_FOR && n->kind != N_WHILE && n->kind != N_SWITCH)
    return;
  const char *t = src->text;
  unsigned lp = n->begin;
  while (lp < n->end && t[lp] != '(')
    lp++;
  if (lp >= n->end)
    return;
  unsigned rp = text_match(src, lp, n->end) - 1;
  n->rparen = rp;
  unsigned semi1 = rp, semi2 = rp;
  if (n->kind == N_FOR) {
    int depth = 0, found = 0;
    for (unsigned i = lp + 1; i < rp; i++) {
      char c = t[i];
      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if (c == ')' || c == ']' || c == '}')
        depth--;
      else if (c == ';' && depth == 0) {
        if (found++ == 0)
          semi1 = i;
        else
          semi2 = i;
      }
    }
  }
  int inside = 0;
  for (int i = 0; i < n->nkid; i++) {
    Node *k = n->kid[i];
    if (k->begin < rp) {
      inside++;
      if (n->kind == N_FOR) {
        if (k->begin < semi1)
          n->init = k;
        else if (k->begin < semi2)
          n->cond = k;
        else
          n->inc = k;
      } else {
        n->cond = k;
      }
    } else if (n->kind == N_IF) {
      if (!n->then)
        n->then = k;
      else
        n->els = k;
    } else {
      n->body = k;
    }
  }
  if ((n->kind == N_IF || n->kind == N_SWITCH || n->kind == N_WHILE) && inside > 1)
    n->has_init_stmt = true;
  if (n->kind == N_IF)
    n->body = n->then;
}

/* An integer constant expression's value, or -1. */
static long eval_int(CXCursor c) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  long v = -1;
  if (r) {
    if (clang_EvalResult_getKind(r) == CXEval_Int)
      v = (long)clang_EvalResult_getAsLongLong(r);
    clang_EvalResult_dispose(r);
  }
  return v;
}

typedef struct {
  CXCursor kids[4];
  int n;
} Kids;

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  Kids *k = data;
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (ck == CXCursor_TypeRef || ck == CXCursor_TemplateRef || ck == CXCursor_NamespaceRef)
    return CXChildVisit_Continue;
  if (k->n < 4)
    k->kids[k->n] = c;
  k->n++;
  return CXChildVisit_Continue;
}

/* The extents of a launch's block argument, x, y and z in dims: an
 * integer constant (y and z 1), dim3(a, b, c) of constants (a default
 * argument is 1), or a dim3 variable initialised so (*var says which:
 * launch.c checks nothing else writes it).  false: unknown. */
static bool block_dims_of(Unit *u, CXCursor c, Sym **var, int depth, long dims[3]) {
  if (depth > 8)
    return false;
  long v = eval_int(c);
  if (v > 0) {
    dims[0] = v;
    dims[1] = dims[2] = 1;
    return true;
  }
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_VarDecl || *var)
      return false;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (clang_Cursor_isNull(init))
      return false;
    *var = sym_for(u, d);
    return block_dims_of(u, init, var, depth + 1, dims);
  }
  Kids kids = {0};
  clang_visitChildren(c, kids_visit, &kids);
  if (k == CXCursor_CallExpr && kids.n >= 1 && kids.n <= 3) {
    /* dim3(x[, y[, z]]): a constructor call. */
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_getCursorKind(ref) != CXCursor_Constructor)
      return false;
    if (kids.n == 1) {
      long one = eval_int(kids.kids[0]);
      if (one > 0) {
        dims[0] = one;
        dims[1] = dims[2] = 1;
        return true;
      }
      return block_dims_of(u, kids.kids[0], var, depth + 1, dims); /* a copy */
    }
    dims[1] = dims[2] = 1;
    for (int i = 0; i < kids.n; i++) {
      long a = eval_int(kids.kids[i]);
      if (a <= 0 && i > 0 && clang_getCursorKind(kids.kids[i]) == CXCursor_UnexposedExpr) {
        Kids inner = {0};
        clang_visitChildren(kids.kids[i], kids_visit, &inner);
        if (inner.n == 0)
          a = 1; /* a default argument: dim3's are 1 */
      }
      if (a <= 0)
        return false;
      dims[i] = a;
    }
    return true;
  }
  if ((k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr || k == CXCursor_CallExpr ||
       k == CXCursor_CXXFunctionalCastExpr) &&
      kids.n == 1)
    return block_dims_of(u, kids.kids[0], var, depth + 1, dims); /* dim3(128): a functional cast */
  return false;
}

/* The name of a member access clang leaves unnamed (of an object of
 * dependent type, or a property): the identifier after its last `.` or
 * `->` (and `template`), ending the access or before its `<`; "" if none
 * (`operator+`, `~T`). */
static char *member_name(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  char *name = "";
  unsigned at = n;
  for (unsigned i = 0; i < n; i++) {
    CXString sp = clang_getTokenSpelling(tu, toks[i]);
    const char *t = clang_getCString(sp);
    if (!strcmp(t, ".") || !strcmp(t, "->"))
      at = i + 1;
    else if (at == i && !strcmp(t, "template"))
      at = i + 1;
    clang_disposeString(sp);
  }
  if (at < n && clang_getTokenKind(toks[at]) == CXToken_Identifier) {
    char *next = at + 1 < n ? take_string(clang_getTokenSpelling(tu, toks[at + 1])) : "";
    if (!next[0] || !strcmp(next, "<"))
      name = take_string(clang_getTokenSpelling(tu, toks[at]));
  }
  clang_disposeTokens(tu, toks, n);
  return name;
}

/* Whether a member access outside the main file is spelled `->`: the token
 * before the member's name.  An unnamed access (threadIdx.x, a property)
 * gets its last token as its spelling. */
static bool member_is_arrow(CXCursor c, char **spelling) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned ntok = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &ntok);
  CXSourceLocation name = clang_getCursorLocation(c);
  bool arrow = false;
  if (ntok && !(*spelling)[0])
    *spelling = take_string(clang_getTokenSpelling(tu, toks[ntok - 1]));
  for (unsigned i = 1; i < ntok; i++) {
    if (!clang_equalLocations(clang_getTokenLocation(tu, toks[i]), name))
      continue;
    CXString sp = clang_getTokenSpelling(tu, toks[i - 1]);
    if (!strcmp(clang_getCString(sp), "template") && i >= 2) { /* p->template f<T>() */
      clang_disposeString(sp);
      sp = clang_getTokenSpelling(tu, toks[i - 2]);
    }
    arrow = !strcmp(clang_getCString(sp), "->");
    clang_disposeString(sp);
    break;
  }
  clang_disposeTokens(tu, toks, ntok);
  return arrow;
}

static void drop_host_only_candidates(Node *n);

/* ---- callees a template's pattern leaves open ----
 * libclang shows a template's pattern, not its instantiations, so a call
 * whose callee depends on a template parameter names no function.  Each is
 * given every function it may call in the translation unit (Node.cand):
 *   f(args)          the overload set clang found for the name;
 *   obj.f(args)      (obj of dependent type) every method or member template
 *                    f of the unit's classes, none if a data member is named
 *                    f (an object or pointer it may call through);
 *   fp(args)         (fp a template parameter of function pointer type) the
 *                    functions named for it wherever the template is named;
 * each kept only if it takes as many arguments (fn_arity).  The analyses take
 * the union of what the candidates do and legality checks each, so a set is
 * exact when it holds every function an instantiation may call.  A unit of
 * several inputs keeps the last two open (refused): another input may
 * instantiate the template with its own classes and functions. */

/* Sets the call's candidates: those of cand that take nargs arguments
 * (all for an operator, whose operands may count its object).  A copy: the
 * name's overload set is shared. */
static void set_candidates(Node *call, int callee, Sym **cand, int ncand, int nargs, const char *name) {
  call->cand_callee = callee;
  bool op = name && !strncmp(name, "operator", 8);
  call->cand = arena_alloc(sizeof(Sym *) * (size_t)(ncand + 1));
  call->ncand = 0;
  for (int i = 0; i < ncand; i++) {
    Sym *f = cand[i];
    if (op || nargs < 0 || !f || f->kind != SYM_FUNC ||
        (nargs >= f->arity_min && (f->arity_max < 0 || nargs <= f->arity_max)))
      call->cand[call->ncand++] = f;
  }
  call->spelling = (char *)name;
}

static enum CXChildVisitResult pack_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(bool *)d |= clang_getCursorKind(c) == CXCursor_PackExpansionExpr;
  return CXChildVisit_Continue;
}

/* The arguments of a call whose callee is its child `callee`; -1 if one is
 * a pack expansion (`f(args...)`: any number). */
static int call_nargs(const Node *call, int callee) {
  if (call->nargs_open)
    return -1;
  int n = 0;
  for (int i = 0; i < call->nkid; i++) {
    const Node *k = call->kid[i];
    bool config = k->kind == N_CALL && k->spelling && !strcmp(k->spelling, "__cudaPushCallConfiguration");
    n += i != callee && k->kind != N_TYPE_REF && !config; /* a launch's <<<...>>> */
  }
  return n;
}

static bool class_kind(enum CXCursorKind k) {
  return k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
         k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

static void add_unique(Vec *v, void *x) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == x)
      return;
  vec_push(v, x);
}

typedef struct {
  Unit *u;
  const char *name;
  Vec fns;    /* Sym*: the methods and member templates so named */
  bool field; /* a data member so named */
} MemberScan;

/* Every class of the unit, its headers' and those local to a function. */
static enum CXChildVisitResult member_scan_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  MemberScan *m = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate || k == CXCursor_FieldDecl || k == CXCursor_VarDecl) {
    CXString sp = clang_getCursorSpelling(c);
    bool same = !strcmp(clang_getCString(sp), m->name);
    clang_disposeString(sp);
    if (same && class_kind(clang_getCursorKind(clang_getCursorSemanticParent(c)))) {
      if (k == CXCursor_FieldDecl || k == CXCursor_VarDecl)
        m->field = true;
      else
        add_unique(&m->fns, sym_for(m->u, c));
    }
  }
  return CXChildVisit_Recurse;
}

/* obj.f(args) on an object of dependent type: every method f (see above). */
static void member_candidates(Unit *u, Node *call, const char *name) {
  Impl *im = impl_of(u);
  if (im->ntus != 1 || !name || !name[0])
    return;
  MemberScan *m = NULL;
  for (int i = 0; i < im->member_scans.len && !m; i++)
    if (!strcmp(((MemberScan *)im->member_scans.items[i])->name, name))
      m = im->member_scans.items[i];
  if (!m) {
    m = arena_alloc(sizeof *m);
    *m = (MemberScan){u, name, {0}, false};
    clang_visitChildren(clang_getTranslationUnitCursor(im->tus[im->cur]), member_scan_visit, m);
    vec_push(&im->member_scans, m);
  }
  if (!m->field && m->fns.len) {
    set_candidates(call, 0, (Sym **)m->fns.items, m->fns.len, call_nargs(call, 0), name);
    drop_host_only_candidates(call);
  }
}

/* fp(args), fp a template parameter of function pointer type: what each
 * naming of its template passes for it.  Only a function template whose
 * parameters are all non-type and none a pack, so that the expressions among
 * a naming's children are its explicit template arguments in order. */
typedef struct {
  CXCursor tmpl;
  unsigned pos;
} TmplParam;

typedef struct {
  Unit *u;
  TmplParam p;
  Vec *fns;    /* Sym*: the functions passed */
  Vec *seen;   /* TmplParam*: those being resolved (a template naming itself) */
  bool ok;
} ParamScan;

static bool resolve_fn_param(Unit *u, CXCursor param, Vec *fns, Vec *seen);

/* Whether a template parameter is of function pointer (or reference) type. */
static bool is_fn_param(CXCursor param) {
  if (clang_getCursorKind(param) != CXCursor_NonTypeTemplateParameter)
    return false;
  CXType t = clang_getCanonicalType(clang_getCursorType(param));
  if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference)
    t = clang_getCanonicalType(clang_getPointeeType(t));
  return t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto;
}

typedef struct {
  CXCursor param;
  unsigned index, pos;
  bool all_non_type, found;
} ParamList;

static enum CXChildVisitResult param_list_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ParamList *l = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_TemplateTypeParameter || k == CXCursor_TemplateTemplateParameter) {
    l->all_non_type = false;
  } else if (k == CXCursor_NonTypeTemplateParameter) {
    if (range_has_token(clang_Cursor_getTranslationUnit(c), clang_getCursorExtent(c), "..."))
      l->all_non_type = false;
    if (clang_equalCursors(c, l->param)) {
      l->pos = l->index;
      l->found = true;
    }
    l->index++;
  }
  return CXChildVisit_Continue;
}

/* The expressions among a naming's children: its template arguments. */
typedef struct {
  unsigned want, at;
  CXCursor arg;
  bool found;
} ArgPick;

static enum CXChildVisitResult arg_pick_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ArgPick *a = d;
  if (clang_isExpression(clang_getCursorKind(c)) && a->at++ == a->want) {
    a->arg = c;
    a->found = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

static enum CXChildVisitResult first_expr_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  *(CXCursor *)d = c;
  return CXChildVisit_Break;
}

/* One naming of the template: the function it passes at the position. */
static void param_use(ParamScan *s, CXCursor naming) {
  ArgPick a = {s->p.pos, 0, clang_getNullCursor(), false};
  clang_visitChildren(naming, arg_pick_visit, &a);
  if (!a.found) {
    s->ok = false; /* deduced, defaulted, or the template named bare */
    return;
  }
  CXCursor e = a.arg;
  /* `f`, `&f`, `(f)`: the name. */
  for (int depth = 0; depth < 4 && clang_getCursorKind(e) != CXCursor_DeclRefExpr; depth++) {
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_UnaryOperator)
      break;
    if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_AddrOf)
      break;
    CXCursor kid = clang_getNullCursor();
    clang_visitChildren(e, first_expr_visit, &kid);
    e = kid;
  }
  CXCursor ref = clang_getCursorReferenced(e);
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if (clang_getCursorKind(e) == CXCursor_DeclRefExpr && (rk == CXCursor_FunctionDecl ||
                                                          (rk == CXCursor_CXXMethod && clang_CXXMethod_isStatic(ref))))
    add_unique(s->fns, sym_for(s->u, ref));
  else if (clang_getCursorKind(e) == CXCursor_DeclRefExpr && is_fn_param(ref))
    s->ok &= resolve_fn_param(s->u, ref, s->fns, s->seen);
  else
    s->ok = false; /* a pointer variable, a call, a cast: not a named function */
}

/* Whether the overloaded name `c` may be the template. */
static bool names_template(CXCursor c, CXCursor tmpl) {
  unsigned n = clang_getNumOverloadedDecls(c);
  for (unsigned i = 0; i < n; i++) {
    CXCursor d = clang_getOverloadedDecl(c, i);
    if (clang_equalCursors(clang_getCanonicalCursor(d), tmpl))
      return true;
    if (clang_getCursorKind(d) == CXCursor_UnexposedDecl) { /* a using-declaration's: by name */
      CXString a = clang_getCursorSpelling(d), b = clang_getCursorSpelling(tmpl);
      bool same = !strcmp(clang_getCString(a), clang_getCString(b));
      clang_disposeString(a);
      clang_disposeString(b);
      if (same)
        return true;
    }
  }
  return false;
}

static enum CXChildVisitResult param_scan_visit(CXCursor c, CXCursor parent, CXClientData d) {
  ParamScan *s = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
    CXCursor ref = clang_getCursorReferenced(c);
    CXCursor t = clang_getSpecializedCursorTemplate(ref);
    if ((!clang_Cursor_isNull(t) && clang_equalCursors(clang_getCanonicalCursor(t), s->p.tmpl)) ||
        clang_equalCursors(clang_getCanonicalCursor(ref), s->p.tmpl))
      param_use(s, c);
  } else if (k == CXCursor_OverloadedDeclRef && names_template(c, s->p.tmpl)) {
    enum CXCursorKind pk = clang_getCursorKind(parent);
    if (pk == CXCursor_DeclRefExpr || pk == CXCursor_MemberRefExpr)
      param_use(s, parent); /* its arguments are the naming's other children */
    else if (pk != CXCursor_UsingDeclaration)
      s->ok = false;
  }
  return s->ok ? CXChildVisit_Recurse : CXChildVisit_Break;
}

/* Adds to fns the functions passed for the parameter, through the
 * templates that pass their own parameter for it; false if a naming passes
 * anything else, or a template is not one whose namings tell (above). */
static bool resolve_fn_param(Unit *u, CXCursor param, Vec *fns, Vec *seen) {
  TmplParam p = {clang_getCanonicalCursor(clang_getCursorSemanticParent(param)), 0};
  if (!is_fn_param(param) || clang_getCursorKind(p.tmpl) != CXCursor_FunctionTemplate)
    return false;
  ParamList l = {param, 0, 0, true, false};
  clang_visitChildren(p.tmpl, param_list_visit, &l);
  if (!l.all_non_type || !l.found)
    return false;
  p.pos = l.pos;
  for (int i = 0; i < seen->len; i++) {
    TmplParam *q = seen->items[i];
    if (q->pos == p.pos && clang_equalCursors(q->tmpl, p.tmpl))
      return true; /* what it passes is what the others pass */
  }
  TmplParam *mine = arena_alloc(sizeof *mine);
  *mine = p;
  vec_push(seen, mine);
  Impl *im = impl_of(u);
  ParamScan s = {u, p, fns, seen, true};
  clang_visitChildren(clang_getTranslationUnitCursor(im->tus[im->cur]), param_scan_visit, &s);
  return s.ok;
}

/* fp(args): its candidates, when every function passed for fp is known. */
static void fn_param_callee(Unit *u, Node *call, CXCursor c) {
  Impl *im = impl_of(u);
  CXCursor param = clang_getCursorReferenced(c);
  if (im->ntus != 1 || clang_getCursorKind(param) != CXCursor_NonTypeTemplateParameter)
    return;
  Vec fns = {0}, seen = {0};
  if (resolve_fn_param(u, param, &fns, &seen) && fns.len) {
    set_candidates(call, 0, (Sym **)fns.items, fns.len, call_nargs(call, 0), call->spelling);
    call->sym = NULL;
  }
  vec_free(&fns);
  vec_free(&seen);
}

/* A call whose callee clang left unresolved (a dependent name in a
 * template): the overload set of its name, found under the callee (an
 * operator's callee stands between its operands), or a member's methods. */
static void dependent_callee(Unit *u, Node *call) {
  for (int i = 0; i < call->nkid; i++) {
    Node *d = call->kid[i];
    while ((d->kind == N_UNEXPOSED || d->kind == N_PAREN) && d->nkid == 1)
      d = d->kid[0];
    for (int j = 0; d->kind == N_DECL_REF && j < d->nkid; j++)
      if (d->kid[j]->cand) {
        set_candidates(call, i, d->kid[j]->cand, d->kid[j]->ncand, call_nargs(call, i), d->kid[j]->spelling);
        return;
      }
  }
  Node *c = call->kid[0];
  for (int depth = 0; c && depth < 4; depth++) {
    if (c->cand) {
      set_candidates(call, 0, c->cand, c->ncand, call_nargs(call, 0), c->spelling);
      return;
    }
    Node *next = NULL;
    for (int i = 0; i < c->nkid && !next; i++)
      if (c->kid[i]->kind != N_TYPE_REF)
        next = c->kid[i];
    if (c->kind == N_MEMBER) {
      member_candidates(u, call, c->spelling);
      call->spelling = c->spelling; /* x.f(): named for the refusal */
      return;
    }
    if (c->kind == N_DECL_REF && !next) {
      call->spelling = c->spelling; /* T::f(): named for the refusal */
      return;
    }
    c = next;
  }
}

/* A construction's class (`cg::plus<T>()`, `S<T>(x)`): the first type or
 * template it names, past its namespaces; *data: whether it is cooperative
 * groups'. */
static enum CXChildVisitResult construct_class_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_NamespaceRef)
    return CXChildVisit_Continue;
  if (k == CXCursor_TypeRef || k == CXCursor_TemplateRef) {
    CXString usr = clang_getCursorUSR(clang_getCursorReferenced(c));
    const char *s = clang_getCString(usr);
    *(bool *)data = s && !strncmp(s, "c:@N@cooperative_groups@", 24);
    clang_disposeString(usr);
  }
  return CXChildVisit_Break;
}

/* In device code (a __global__ or __device__ function's body), a dependent
 * call cannot reach a candidate that is host code only (no __device__, not
 * constexpr): nvcc, which compiles the program, would reject that call.
 * Such candidates are dropped (std::string's operator+ among the overloads
 * of `a + b` in a kernel template), unless none would remain. */
static void drop_host_only_candidates(Node *n) {
  Node *f = n->parent;
  while (f && f->kind != N_FUNC)
    f = f->parent;
  if (!f || !f->sym || !(f->sym->is_device_fn || f->sym->is_global_fn))
    return;
  int kept = 0;
  for (int i = 0; i < n->ncand; i++)
    kept += n->cand[i] && !n->cand[i]->host_only;
  if (kept == 0 || kept == n->ncand)
    return;
  int j = 0;
  for (int i = 0; i < n->ncand; i++)
    if (n->cand[i] && !n->cand[i]->host_only)
      n->cand[j++] = n->cand[i];
  n->ncand = j;
  n->cand[j] = NULL;
}

/* The dimension of `blockDim.x` & co. written in a macro's argument or
 * body: the member's name where its tokens are spelt (the expansion's
 * text is not the member's), or -1 when that is not in a file of the
 * project or not `.x`, `.y`, `.z`. */
static int macro_member_dim(Unit *u, CXCursor c) {
  Impl *im = impl_of(u);
  CXSourceLocation end = clang_getRangeEnd(clang_getCursorExtent(c));
  CXFile f;
  unsigned o;
  clang_getSpellingLocation(end, &f, NULL, NULL, &o);
  Source *src = file_src(im, f);
  if (!src || o < 2 || o > src->len)
    return -1;
  /* The range ends just past the member's name. */
  const char *t = src->text;
  unsigned m = o - 1, p = m;
  if (ident_char(t[m - 1]))
    return -1;
  while (p > 0 && (t[p - 1] == ' ' || t[p - 1] == '\t'))
    p--;
  return t[m] >= 'x' && t[m] <= 'z' && p > 0 && t[p - 1] == '.' ? t[m] - 'x' : -1;
}

/* Where a builtin's component (`blockDim.x`) is spelled in a macro's
 * argument, the node's extent becomes that text and the node rewritable
 * there.  build() cannot tell from the cursor alone: its extent is the
 * whole macro use, and a member expression's cursor names no token to
 * compare (CUDA's x, y, z are properties: empty spelling, location at the
 * base's name).  Exact where both ends of the extent are spelled in one
 * project file at their file locations (tokens of an argument as written
 * at the use; a macro body's tokens are spelled at its #define) and the
 * text between is `name . c` alone: a function-like macro substitutes an
 * argument's tokens as written, so rewriting that text rewrites the
 * expression in every place the body uses it.  A body that stringizes the
 * argument (`#a`, as assert does for its message) then shows the rewritten
 * text: only that string changes, never a value.  A body that pastes
 * (`##`) is left in the macro (macro_arg_pastes, after the visit). */
static void macro_arg_builtin(Unit *u, CXCursor c, Node *n, const char *name) {
  Impl *im = impl_of(u);
  CXSourceRange r = clang_getCursorExtent(c);
  CXSourceLocation ends[2] = {clang_getRangeStart(r), clang_getRangeEnd(r)};
  unsigned off[2];
  Source *in = NULL;
  for (int i = 0; i < 2; i++) {
    CXFile sf, ff;
    unsigned so, fo;
    clang_getSpellingLocation(ends[i], &sf, NULL, NULL, &so);
    clang_getFileLocation(ends[i], &ff, NULL, NULL, &fo);
    Source *ss = file_src(im, sf);
    if (!ss || ss != file_src(im, ff) || so != fo || (in && ss != in))
      return;
    in = ss;
    off[i] = ss->base + so;
  }
  const char *t = u->src->text;
  size_t nl = strlen(name);
  unsigned b = off[0], e = off[1], p = b + (unsigned)nl;
  if (e <= p || e >= u->src->len || strncmp(t + b, name, nl) || (b > 0 && ident_char(t[b - 1])) || ident_char(t[e]))
    return;
  while (p < e && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= e || t[p++] != '.')
    return;
  while (p < e && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p + 1 != e || t[p] < 'x' || t[p] > 'z')
    return;
  n->begin = n->loc = b;
  n->end = e;
  n->in_macro = false;
  vec_push(&im->macro_args, n);
}

/* A builtin made rewritable in a macro's argument (macro_arg_builtin)
 * goes back into the macro where a macro use around it pastes tokens
 * (`##`): the pasted token is another one, which the text no longer says. */
static void macro_arg_pastes(Unit *u) {
  Impl *im = impl_of(u);
  for (int i = 0; i < im->macro_args.len; i++) {
    Node *n = im->macro_args.items[i];
    for (int j = 0; j < u->macro_uses.len && !n->in_macro; j++) {
      const MacroUse *mu = u->macro_uses.items[j];
      if (mu->begin > n->begin || mu->end < n->end)
        continue;
      for (int b = 0; b < mu->macro->nbody && !n->in_macro; b++)
        n->in_macro = !strcmp(mu->macro->body[b], "##");
    }
  }
  vec_free(&im->macro_args);
}

/* Whether dependent type t is a specialization of a class template
 * (`Packed128<T>`, its canonical spelling `Packed128<type-parameter-0-0>`),
 * which no argument makes a pointer; not a template parameter's own
 * (`T`, `TT<T>`: an alias template may make it one), a dependent member
 * (`typename X<T>::type`) or a decltype. */
static bool dependent_class(CXType t) {
  char *sp = take_string(clang_getTypeSpelling(t));
  const char *p = sp;
  for (;;) {
    if (!strncmp(p, "const ", 6))
      p += 6;
    else if (!strncmp(p, "volatile ", 9))
      p += 9;
    else
      break;
  }
  size_t n = strlen(p);
  while (n && p[n - 1] == ' ')
    n--;
  return n && p[n - 1] == '>' && strchr(p, '<') && strncmp(p, "type-parameter-", 15) && strncmp(p, "typename ", 9) &&
         !strstr(p, "decltype(") && !strstr(p, "::type-parameter-");
}

static enum CXChildVisitResult typeref_is_reference(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_TypeRef) {
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(c)).kind;
    if (k == CXType_LValueReference || k == CXType_RValueReference) {
      *(bool *)data = true;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Continue;
}

/* Whether cast c yields a value rather than an lvalue: its type as
 * written holds no `&` (`(T &)x`, `static_cast<T &&>(x)`) and names no
 * typedef of a reference.  The written type is read from the cast's tokens:
 * a C cast's first parenthesised group, a named cast's `<...>`; a
 * functional cast `T(x)` spells a simple type. */
static bool cast_gives_value(CXCursor c) {
  bool ref = false;
  clang_visitChildren(c, typeref_is_reference, &ref);
  if (ref)
    return false;
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (ck == CXCursor_CXXFunctionalCastExpr)
    return true;
  /* Written in a macro: its tokens are the invocation's, not the cast's. */
  CXSourceRange ext = clang_getCursorExtent(c);
  CXSourceLocation at = clang_getRangeStart(ext), end = clang_getRangeEnd(ext);
  CXFile f1, f2, f3, f4;
  unsigned o1, o2, o3, o4;
  clang_getExpansionLocation(at, &f1, NULL, NULL, &o1);
  clang_getSpellingLocation(at, &f2, NULL, NULL, &o2);
  clang_getExpansionLocation(end, &f3, NULL, NULL, &o3);
  clang_getSpellingLocation(end, &f4, NULL, NULL, &o4);
  if (o1 != o2 || o3 != o4 || !clang_File_isEqual(f1, f2) || !clang_File_isEqual(f3, f4))
    return false;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(tu, ext, &toks, &nt);
  bool value = nt > 0;
  const char *open = ck == CXCursor_CStyleCastExpr ? "(" : "<", *close = ck == CXCursor_CStyleCastExpr ? ")" : ">";
  int depth = 0;
  bool started = false;
  for (unsigned i = 0; i < nt; i++) {
    CXString ts = clang_getTokenSpelling(tu, toks[i]);
    const char *t = clang_getCString(ts);
    bool stop = false;
    if (!strcmp(t, open)) {
      depth++;
      started = true;
    } else if (!strcmp(t, close) || (!strcmp(close, ">") && !strcmp(t, ">>"))) {
      depth -= strcmp(t, ">>") ? 1 : 2;
      stop = started && depth <= 0;
    } else if (started && depth > 0 && (!strcmp(t, "&") || !strcmp(t, "&&"))) {
      value = false;
    }
    clang_disposeString(ts);
    if (stop)
      break;
  }
  if (!started)
    value = false; /* a form not read: an lvalue, maybe */
  clang_disposeTokens(tu, toks, nt);
  return value;
}

static Node *build(Unit *u, CXCursor c, Node *parent) {
  Impl *im = impl_of(u);
  enum CXCursorKind ck = clang_getCursorKind(c);
  Node *n = arena_alloc(sizeof *n);
  /* The node kind is the construct table's row's; a cursor with no row
   * is N_OTHER, named for the refusal. */
  n->construct = construct_index(ck);
  n->kind = n->construct < 0 ? N_OTHER : construct_rows[n->construct].kind;
  if (n->construct < 0)
    n->cursor_name = take_string(clang_getCursorKindSpelling(ck));
  else if (n->kind == N_UNEXPOSED && is_atomic_builtin(c))
    n->construct = CONSTRUCT_ATOMIC_BUILTIN;
  n->parent = parent;

  CXSourceRange r = clang_getCursorExtent(c);
  unsigned b = 0, e = 0;
  bool bmain = loc_in_main(im, clang_getRangeStart(r), &b);
  bool emain = loc_in_main(im, clang_getRangeEnd(r), &e);
  bool in_main = bmain && emain && source_file_at(u->src, b) == source_file_at(u->src, e);
  if (!in_main)
    b = e = parent ? parent->begin : 0;
  n->begin = b;
  n->end = e < b ? b : e;
  /* An extent whose last token comes from a macro use ends, for libclang,
   * where that use *starts* (`i < IDN(nx)` would end before `IDN`): its
   * end is moved past the use once the uses are known (fix_macro_ends). */
  if (in_main) {
    CXFile sf;
    unsigned so;
    clang_getSpellingLocation(clang_getRangeEnd(r), &sf, NULL, NULL, &so);
    Source *ss = file_src(im, sf);
    if (!ss || ss->base + so != e)
      vec_push(&im->macro_ends, n);
  }

  /* The cursor's own location.  A token spelled in a macro *argument* has
   * its spelling in the file's own text at the use (spelling == file
   * location), so it can still be rewritten there; a token of a macro
   * *body* is spelled in the #define (or a header) and cannot. */
  CXSourceLocation loc = clang_getCursorLocation(c);
  CXFile ef, sf, ff;
  unsigned eo, so, fo;
  clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
  clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
  clang_getFileLocation(loc, &ff, NULL, NULL, &fo);
  Source *es = file_src(im, ef), *ss = file_src(im, sf), *fs = file_src(im, ff);
  if (es)
    eo += es->base;
  if (ss)
    so += ss->base;
  if (fs)
    fo += fs->base;
  n->loc = es ? eo : n->begin;
  n->in_macro = !(ss && es && so == eo);
  if (n->in_macro && ss && fs == ss && so == fo) {
    char *sp = take_string(clang_getCursorSpelling(c));
    size_t len = strlen(sp);
    if (len && so + len <= u->src->len && !memcmp(u->src->text + so, sp, len)) {
      n->in_macro = false; /* a macro argument */
      n->loc = so;
    }
  }

  switch (n->kind) {
  case N_FUNC:
  case N_PARAM:
  case N_VAR:
    n->sym = sym_for(u, c);
    n->spelling = n->sym ? n->sym->name : NULL;
    /* An array's size expressions are children too; only this tells them
     * from an initializer.  A class type's implicit default construction
     * (`P p[64];`) is an initializer to clang but has no text. */
    if (n->kind == N_VAR && !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(c)) && n->sym && !in_main) {
      n->has_var_init = true; /* a header's text is not at hand: any initializer counts */
    } else if (n->kind == N_VAR && !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(c)) && n->sym) {
      int depth = 0;
      for (unsigned i = n->loc + (unsigned)strlen(n->sym->name); i < n->end && i < u->src->len; i++) {
        char ch = u->src->text[i];
        depth += ch == '[' ? 1 : ch == ']' ? -1 : 0;
        if (!depth && (ch == '=' || ch == '(' || ch == '{')) {
          n->has_var_init = true;
          break;
        }
      }
    }
    break;
  case N_DECL_REF:
  case N_CALL:
    n->sym = sym_for(u, clang_getCursorReferenced(c));
    n->spelling = take_string(clang_getCursorSpelling(c));
    break;
  case N_BINOP:
  case N_ASSIGN:
    n->op = map_binop(clang_getCursorBinaryOperatorKind(c));
    if (n->kind == N_BINOP && n->op >= OP_ASSIGN && n->op <= OP_OR_ASSIGN)
      n->kind = N_ASSIGN;
    break;
  case N_UNOP:
    n->op = map_unop(clang_getCursorUnaryOperatorKind(c));
    break;
  case N_MEMBER:
    n->spelling = take_string(clang_getCursorSpelling(c));
    if (!n->spelling[0])
      n->spelling = member_name(c);
    if (!in_main)
      n->arrow = member_is_arrow(c, &n->spelling);
    break;
  default:
    /* A lambda's explicit capture names the captured variable (an
     * init-capture: the variable it declares). */
    if (ck == CXCursor_VariableRef && parent && parent->kind == N_LAMBDA)
      n->captured = sym_for(u, clang_getCursorReferenced(c));
    if (ck == CXCursor_OverloadedDeclRef) {
      /* A dependent call's name: the functions it may call. */
      n->spelling = take_string(clang_getCursorSpelling(c));
      n->ncand = (int)clang_getNumOverloadedDecls(c);
      n->cand = arena_alloc(sizeof(Sym *) * (size_t)(n->ncand + 1));
      for (int i = 0; i < n->ncand; i++) {
        CXCursor d = clang_getOverloadedDecl(c, (unsigned)i);
        bool shadow = clang_getCursorKind(d) == CXCursor_UnexposedDecl; /* `using std::exp;` */
        CXCursor t = shadow ? clang_getCursorDefinition(d) : clang_getNullCursor();
        if (shadow && !clang_Cursor_isNull(t) && is_function_kind(clang_getCursorKind(t)))
          d = t;
        n->cand[i] = sym_for(u, d);
        if (shadow && n->cand[i] && n->cand[i]->kind == SYM_OTHER)
          n->cand[i]->kind = SYM_FUNC; /* a function it cannot reach: known by name, else unknown */
      }
      drop_host_only_candidates(n);
    }
    break;
  }

  if (clang_isExpression(ck)) {
    CXType ct = clang_getCanonicalType(clang_getCursorType(c));
    n->type_integral = (ct.kind >= CXType_Bool && ct.kind <= CXType_Int128) || ct.kind == CXType_Enum;
    n->type_array = ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray ||
                    ct.kind == CXType_VariableArray || ct.kind == CXType_DependentSizedArray;
    n->type_pointer = ct.kind == CXType_Pointer;
    if (ct.kind >= CXType_Bool && ct.kind <= CXType_LongDouble)
      n->type_arith = (int)ct.kind;
    if (ct.kind == CXType_Record) {
      char *ts = take_string(clang_getTypeSpelling(ct));
      n->type_dim3 = !strcmp(ts, "dim3") || !strcmp(ts, "uint3");
      n->cg_group = cg_group_of(ts, &n->cg_tile, &n->cg_parent);
    }
  }

  BuildCtx bc = {u, n, {0}};
  clang_visitChildren(c, build_visit, &bc);
  n->kid = (Node **)bc.kids.items;
  n->nkid = bc.kids.len;
  if (n->kind == N_CAST)
    n->cast_value = cast_gives_value(c);
  if (n->kind == N_CALL && !n->sym && n->nkid && n->kid[0]->kind == N_TYPE_REF)
    clang_visitChildren(c, construct_class_visit, &n->cg_construct);

  /* threadIdx.x & co.: a member access on a builtin variable. */
  if (n->kind == N_MEMBER && n->nkid == 1) {
    Node *base = node_strip(n->kid[0]);
    if (base->kind == N_DECL_REF && base->sym && base->sym->kind == SYM_BUILTIN) {
      const char *nm = base->sym->name;
      n->bi = !strcmp(nm, "threadIdx") ? BI_THREADIDX
              : !strcmp(nm, "blockIdx") ? BI_BLOCKIDX
              : !strcmp(nm, "blockDim") ? BI_BLOCKDIM
              : !strcmp(nm, "gridDim") ? BI_GRIDDIM
                                        : BI_NONE;
      if (n->bi != BI_NONE && n->in_macro)
        macro_arg_builtin(u, c, n, nm);
      if (n->bi != BI_NONE && !n->in_macro && n->end > n->begin) {
        char last = u->src->text[n->end - 1];
        if (last >= 'x' && last <= 'z') {
          n->kind = N_BUILTIN;
          n->bi_dim = last - 'x';
        }
      } else if (n->bi != BI_NONE && !in_main && n->spelling && n->spelling[0] >= 'x' && n->spelling[0] <= 'z' &&
                 !n->spelling[1]) {
        n->kind = N_BUILTIN; /* in a header's function: never rewritten, but its dimension counts */
        n->bi_dim = n->spelling[0] - 'x';
      }
      if (n->kind != N_BUILTIN) {
        /* In a macro: keep the facts, the dimension from the member's
         * name where it is one; the legality pass refuses here what the
         * mode changes (its text cannot be rewritten), and any builtin
         * whose dimension is unknown. */
        n->kind = N_BUILTIN;
        n->bi_dim = macro_member_dim(u, c);
        if (n->bi == BI_NONE)
          n->bi = BI_THREADIDX;
      }
    }
  }

  if (n->kind == N_MEMBER && n->nkid == 1 && n->kid[0]->end <= n->end && in_main) {
    const char *t = u->src->text;
    for (unsigned i = n->kid[0]->end; i + 1 < n->end; i++)
      if (t[i] == '-' && t[i + 1] == '>')
        n->arrow = true;
  }
  fill_control_parts(u->src, n);

  if (n->kind == N_CALL && n->spelling && !strcmp(n->spelling, "__cudaPushCallConfiguration") &&
      clang_Cursor_getNumArguments(c) >= 2)
    if (block_dims_of(u, clang_Cursor_getArgument(c, 1), &n->block_var, 0, n->block_dim))
      n->block_threads = n->block_dim[0] * n->block_dim[1] * n->block_dim[2];
  if (n->kind == N_CALL && n->spelling && !strcmp(n->spelling, "__cudaPushCallConfiguration") &&
      clang_Cursor_getNumArguments(c) >= 3)
    n->dyn_bytes = eval_int(clang_Cursor_getArgument(c, 2));
  if (n->kind == N_CALL && (!n->sym || n->sym->kind == SYM_OTHER))
    clang_visitChildren(c, pack_visit, &n->nargs_open);
  if (n->kind == N_CALL && !n->sym && n->nkid)
    dependent_callee(u, n);
  else if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_OTHER)
    fn_param_callee(u, n, c);
  if (n->kind == N_CALL && in_main) {
    for (int i = 0; i < n->nkid; i++) {
      Node *k = n->kid[i];
      if (k->kind == N_CALL && k->spelling && !strcmp(k->spelling, "cudaLaunchDevice"))
        n->device_launch = true; /* k<<<...>>> in device code (dynamic parallelism) */
      if (k->kind == N_CALL && k->spelling && !strcmp(k->spelling, "__cudaPushCallConfiguration")) {
        n->is_launch = true;
        if (i != 1) {
          /* Keep the configuration as kid[1]: callee, config, args... */
          Node *t = n->kid[1];
          n->kid[1] = k;
          n->kid[i] = t;
        }
        vec_push(&u->launches, n);
        /* A launch through a pointer: the function type it points to. */
        CXCursor callee = clang_getNullCursor();
        clang_visitChildren(c, first_child_visit, &callee);
        CXType ct = clang_getCanonicalType(clang_getCursorType(callee));
        if (!clang_Cursor_isNull(callee) && ct.kind == CXType_Pointer)
          n->callee_fn_type = canonical_spelling(clang_getPointeeType(ct));
        break;
      }
    }
  }
  return n;
}

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

/* The spellings of the tokens of c's extent (c: a macro definition or use). */
static char **token_spellings(CXCursor c, int *n) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &nt);
  char **out = arena_alloc(sizeof(char *) * (nt + 1));
  for (unsigned i = 0; i < nt; i++)
    out[i] = take_string(clang_getTokenSpelling(tu, toks[i]));
  if (toks)
    clang_disposeTokens(tu, toks, nt);
  *n = (int)nt;
  return out;
}

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

static const char *error_code_sentence(enum CXErrorCode ec) {
  switch (ec) {
  case CXError_Crashed: return "libclang crashed while parsing";
  case CXError_InvalidArguments: return "libclang rejected the parser arguments";
  case CXError_ASTReadError: return "libclang could not read the AST";
  default: return "libclang could not parse the file";
  }
}

/* The CUDA and C++ headers that clang includes before every CUDA file
 * cost nearly all of a parse.  They are parsed once per parser
 * configuration into a precompiled header in the user's cache
 * ($TFUSE_CACHE_DIR, else $XDG_CACHE_HOME/tfuse, else ~/.cache/tfuse) and
 * reused with -include-pch.  Any failure just means a plain parse;
 * TFUSE_NO_PCH=1 turns the cache off. */
/* What nvcc gives every file and clang's CUDA headers do not; parsed
 * only, never emitted, and a system header (so effects.c's table of known
 * functions applies to its declarations):
 *   - host overloads of min and max (nvcc's crt/math_functions.hpp): a
 *     host `max(1.5f, x)` is "no matching function" to clang;
 *   - the memory orders and scopes of nvcc's `__nv_atomic_*` builtins
 *     (enums of crt/device_functions.h, which clang's headers leave out)
 *     and declarations of the builtins, loose enough for any argument
 *     types (effects.c: stores through their pointers, or a fence);
 *   - the cache-hinted loads and stores of sm_32_intrinsics.h that
 *     clang's headers leave out (__ldca, __ldlu, __stcg, __stcs, __stwb),
 *     as templates for every element and vector type (effects.c: loads,
 *     stores through their pointers);
 *   - the C and C++ headers nvcc's own headers include and clang's do
 *     not: <new> (placement new in device code, crt/common_functions.h),
 *     <time.h> (host clock(), time()), <math.h> (isfinite, isnan, isinf
 *     of the global namespace on the host). */
static const char nvcc_host_compat[] =
    "/* tfuse: what nvcc gives every file (parsed only) */\n"
    "#pragma once\n"
    "#pragma clang system_header\n"
    "enum __tfuse_nv_atomic_order { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL,\n"
    "       __NV_ATOMIC_SEQ_CST };\n"
    "enum __tfuse_nv_thread_scope { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER, __NV_THREAD_SCOPE_DEVICE,\n"
    "       __NV_THREAD_SCOPE_SYSTEM };\n"
    "#define TFUSE_NV_ATOMIC(R, name) template <class T, class... A> __device__ R name(T *, A...);\n"
    "#define TFUSE_NV_ATOMIC_OP(op) TFUSE_NV_ATOMIC(T, __nv_atomic_fetch_##op) TFUSE_NV_ATOMIC(void, __nv_atomic_##op)\n"
    "TFUSE_NV_ATOMIC_OP(add) TFUSE_NV_ATOMIC_OP(sub) TFUSE_NV_ATOMIC_OP(min) TFUSE_NV_ATOMIC_OP(max)\n"
    "TFUSE_NV_ATOMIC_OP(and) TFUSE_NV_ATOMIC_OP(or) TFUSE_NV_ATOMIC_OP(xor)\n"
    "TFUSE_NV_ATOMIC(T, __nv_atomic_exchange_n) TFUSE_NV_ATOMIC(void, __nv_atomic_exchange)\n"
    "TFUSE_NV_ATOMIC(bool, __nv_atomic_compare_exchange_n) TFUSE_NV_ATOMIC(bool, __nv_atomic_compare_exchange)\n"
    "TFUSE_NV_ATOMIC(T, __nv_atomic_load_n) TFUSE_NV_ATOMIC(void, __nv_atomic_load)\n"
    "TFUSE_NV_ATOMIC(void, __nv_atomic_store_n) TFUSE_NV_ATOMIC(void, __nv_atomic_store)\n"
    "__device__ void __nv_atomic_thread_fence(int, int);\n"
    "#undef TFUSE_NV_ATOMIC_OP\n"
    "#undef TFUSE_NV_ATOMIC\n"
    "template <class T> __device__ T __ldca(const T *);\n"
    "template <class T> __device__ T __ldlu(const T *);\n"
    "template <class T, class V> __device__ void __stcg(T *, V);\n"
    "template <class T, class V> __device__ void __stcs(T *, V);\n"
    "template <class T, class V> __device__ void __stwb(T *, V);\n"
    "#include <new>\n"
    "#include <time.h>\n"
    "#include <math.h>\n"
    "#if !defined(__CUDA_ARCH__)\n"
    "#define TFUSE_MINMAX(R, A, B) \\\n"
    "  static inline __host__ R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; } \\\n"
    "  static inline __host__ R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }\n"
    "TFUSE_MINMAX(int, int, int)\n"
    "TFUSE_MINMAX(unsigned int, unsigned int, unsigned int)\n"
    "TFUSE_MINMAX(unsigned int, int, unsigned int)\n"
    "TFUSE_MINMAX(unsigned int, unsigned int, int)\n"
    "TFUSE_MINMAX(long int, long int, long int)\n"
    "TFUSE_MINMAX(unsigned long int, unsigned long int, unsigned long int)\n"
    "TFUSE_MINMAX(unsigned long int, long int, unsigned long int)\n"
    "TFUSE_MINMAX(unsigned long int, unsigned long int, long int)\n"
    "TFUSE_MINMAX(long long int, long long int, long long int)\n"
    "TFUSE_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)\n"
    "TFUSE_MINMAX(unsigned long long int, long long int, unsigned long long int)\n"
    "TFUSE_MINMAX(unsigned long long int, unsigned long long int, long long int)\n"
    "TFUSE_MINMAX(float, float, float)\n"
    "TFUSE_MINMAX(double, double, double)\n"
    "TFUSE_MINMAX(double, float, double)\n"
    "TFUSE_MINMAX(double, double, float)\n"
    "#undef TFUSE_MINMAX\n"
    "#endif\n";

/* Without a cache folder the compat header is an unsaved file of every
 * parse at this path (parse_input), which need not exist. */
#define NVCC_HOST_COMPAT_VIRTUAL "/tfuse-virtual/nvcc-host-compat.h"

/* The compat header's path in the cache folder (written once), else the
 * virtual one. */
static const char *nvcc_host_compat_path(void) {
  const char *dir = cache_dir();
  if (!dir)
    return NVCC_HOST_COMPAT_VIRTUAL;
  const char *path = arena_printf("%s/nvcc-host-compat-%016zx.h", dir, str_hash(nvcc_host_compat));
  if (access(path, R_OK) == 0)
    return path;
  const char *tmp = arena_printf("%s.%d.tmp", path, (int)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return NVCC_HOST_COMPAT_VIRTUAL;
  bool ok = fwrite(nvcc_host_compat, 1, sizeof nvcc_host_compat - 1, f) == sizeof nvcc_host_compat - 1;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return NVCC_HOST_COMPAT_VIRTUAL;
  }
  return path;
}

static const char *preamble_pch(CXIndex index, Vec *args) {
  if (getenv("TFUSE_NO_PCH"))
    return NULL;
  const char *dir = cache_dir();
  if (!dir)
    return NULL;
  CXString ver = clang_getClangVersion();
  size_t h = str_hash(clang_getCString(ver));
  clang_disposeString(ver);
  for (int i = 0; i < args->len; i++)
    h = h * 31 + str_hash(args->items[i]);
  const char *path = arena_printf("%s/preamble-pp-%016zx.pch", dir, h);
  if (access(path, R_OK) == 0)
    return path;
  struct CXUnsavedFile empty = {"tfuse-preamble.cu", "", 0};
  CXTranslationUnit tu = NULL;
  if (clang_parseTranslationUnit2(index, "tfuse-preamble.cu", (const char *const *)args->items, args->len, &empty,
                                  1, CXTranslationUnit_ForSerialization | CXTranslationUnit_DetailedPreprocessingRecord,
                                  &tu) != CXError_Success)
    return NULL;
  const char *tmp = arena_printf("%s.%d.tmp", path, (int)getpid());
  bool ok = clang_saveTranslationUnit(tu, tmp, 0) == CXSaveError_None && rename(tmp, path) == 0;
  clang_disposeTranslationUnit(tu);
  if (!ok)
    unlink(tmp);
  return ok ? path : NULL;
}

/* The detailed preprocessing record gives the macro definitions and uses
 * (macros.c) and the ranges #if skipped (unit_is_skipped). */
#define PARSE_FLAGS (CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord)

/* clang's resource folder, <libclang's folder>/clang/<major version> (the
 * folder as the library was loaded, else with links resolved), or NULL
 * when that has no include/cuda_wrappers.  libclang's driver derives the
 * folder from the path of a clang program it does not have and misses it,
 * and with it the CUDA wrappers of the C++ headers (<new>'s placement new
 * for device code, <cmath>, <complex>) that clang's CUDA mode puts first
 * on the include path; given -resource-dir, it finds them. */
static const char *resource_dir(void) {
  static char dir[PATH_MAX + 32];
  static bool done;
  if (done)
    return dir[0] ? dir : NULL;
  done = true;
  /* dlsym, not &clang_createIndex: that may be tfuse's own PLT entry. */
  void *addr = dlsym(RTLD_DEFAULT, "clang_createIndex");
  Dl_info info;
  if (!addr || !dladdr(addr, &info) || !info.dli_fname)
    return NULL;
  CXString v = clang_getClangVersion();
  const char *ver = strstr(clang_getCString(v), "version ");
  int major = ver ? atoi(ver + 8) : 0;
  clang_disposeString(v);
  char real[PATH_MAX];
  const char *libs[] = {info.dli_fname, realpath(info.dli_fname, real)};
  for (int i = 0; i < 2 && major > 0; i++) {
    const char *slash = libs[i] ? strrchr(libs[i], '/') : NULL;
    if (!slash)
      continue;
    snprintf(dir, sizeof dir, "%.*s/clang/%d", (int)(slash - libs[i]), libs[i], major);
    if (access(arena_printf("%s/include/cuda_wrappers", dir), R_OK) == 0)
      return dir;
  }
  dir[0] = 0;
  return NULL;
}

/* The parser's command line for an input: CUDA host side (device: the
 * device side, for target.c's comparison) as nvcc compiles it with clang's
 * resource folder (resource_dir), the input's compiler
 * flags (its database entry's and the command line's) with nvcc's include
 * folders and macros (Input.parser_flags, which the driver reads), then the
 * host compat header. */
static void parser_args(const Input *in, const Options *opt, Vec *args, bool device) {
  vec_push(args, "-x");
  vec_push(args, "cuda");
  vec_push(args, device ? "--cuda-device-only" : "--cuda-host-only");
  vec_push(args, "--cuda-gpu-arch=sm_90");
  vec_push(args, "-std=c++17");
  vec_push(args, arena_printf("--cuda-path=%s", opt->cuda_path));
  vec_push(args, "-Wno-unknown-cuda-version");
  vec_push(args, "-Wno-unknown-pragmas");
  vec_push(args, "-nogpulib"); /* no libdevice: the parse is host-side */
  const char *res = resource_dir();
  if (res) {
    vec_push(args, "-resource-dir");
    vec_push(args, (char *)res);
  }
  for (int i = 0; i < in->parser_flags.len; i++)
    vec_push(args, in->parser_flags.items[i]);
  vec_push(args, "-include");
  vec_push(args, (char *)nvcc_host_compat_path());
}

/* Parses one input with `args` (parser_args), with `texts` (Source*, by
 * real path: Project.texts, or the outputs verify.c checks) in place of
 * those files on disk; false after an error. */
static bool parse_input(CXIndex index, const Input *in, Vec *args, const Vec *texts, unsigned flags,
                        CXTranslationUnit *tu, bool quiet) {
  /* libclang finds an unsaved file by the file it names, whatever the
   * spelling of the #include or of the input that reaches it. */
  struct CXUnsavedFile *unsaved = calloc((size_t)texts->len + 1, sizeof *unsaved);
  for (int i = 0; i < texts->len; i++) {
    Source *f = texts->items[i];
    unsaved[i] = (struct CXUnsavedFile){f->path, f->text, (unsigned long)f->len};
  }
  unsaved[texts->len] = (struct CXUnsavedFile){NVCC_HOST_COMPAT_VIRTUAL, nvcc_host_compat, sizeof nvcc_host_compat - 1};
  const char *pch = preamble_pch(index, args);
  enum CXErrorCode ec = CXError_Failure;
  *tu = NULL;
  if (pch) {
    vec_push(args, "-include-pch");
    vec_push(args, (void *)pch);
    ec = clang_parseTranslationUnit2(index, in->path, (const char *const *)args->items, args->len, unsaved,
                                     (unsigned)texts->len + 1, flags, tu);
    args->len -= 2;
    /* A stale or unusable cache: fall back to a plain parse. */
    if (ec == CXError_Success && clang_getNumDiagnostics(*tu) > 0) {
      bool pch_problem = false;
      for (unsigned i = 0; i < clang_getNumDiagnostics(*tu); i++) {
        CXDiagnostic d = clang_getDiagnostic(*tu, i);
        CXString m = clang_getDiagnosticSpelling(d);
        if (strstr(clang_getCString(m), "precompiled") || strstr(clang_getCString(m), ".pch"))
          pch_problem = true;
        clang_disposeString(m);
        clang_disposeDiagnostic(d);
      }
      if (pch_problem) {
        clang_disposeTranslationUnit(*tu);
        *tu = NULL;
        unlink(pch);
        ec = CXError_Failure;
      }
    }
  }
  if (ec != CXError_Success || !*tu)
    ec = clang_parseTranslationUnit2(index, in->path, (const char *const *)args->items, args->len, unsaved,
                                     (unsigned)texts->len + 1, flags, tu);
  free(unsaved);
  if (ec != CXError_Success) {
    *tu = NULL;
    if (!quiet)
      error_plain("%s '%s'", error_code_sentence(ec), in->path);
    return false;
  }
  return true;
}

/* A header an input includes: a file of the project if it lies under the
 * root and is a system header for no input. */
typedef struct {
  const char *real, *name;
  bool system;
  CXTranslationUnit tu; /* one that includes it */
  CXFile file;
} Header;

typedef struct {
  Impl *im;
  CXTranslationUnit tu;
  Vec *headers;  /* Header* */
  Vec *included; /* Reach*: the files under the root it includes */
} IncludeScan;

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

/* The ranges tu's preprocessor skipped in the project's files (unsigned[2],
 * project offsets), for the translation unit whose files set_tu chose. */
static void skipped_ranges(Impl *im, CXTranslationUnit tu, Vec *out) {
  CXSourceRangeList *l = clang_getAllSkippedRanges(tu);
  for (unsigned j = 0; l && j < l->count; j++) {
    unsigned b, e;
    if (loc_in_main(im, clang_getRangeStart(l->ranges[j]), &b) && loc_in_main(im, clang_getRangeEnd(l->ranges[j]), &e) &&
        b <= e) {
      unsigned *r = arena_alloc(2 * sizeof *r);
      r[0] = b;
      r[1] = e;
      vec_push(out, r);
    }
  }
  if (l)
    clang_disposeSourceRangeList(l);
}

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
static void target_inputs(Unit *u, Project *p, const Options *opt, Vec *out) {
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
  for (int i = 0; i < im->member_scans.len; i++)
    vec_free(&((MemberScan *)im->member_scans.items[i])->fns);
  vec_free(&im->member_scans);
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
