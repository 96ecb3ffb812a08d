/* symbols: one Sym per declaration, shared by all translation units.
 *
 * Contract: sym_for() gives the Sym of a declaration cursor, made on first
 * sight and found again by USR in every unit (a kernel of a header and its
 * launches in two inputs meet): its name, kind (local, parameter, shared,
 * global, function, builtin), type facts the passes ask (array, pointer, a
 * class that may hold a pointer, the floating-point fields of a record,
 * a reference result), CUDA attributes and function facts (arity, host
 * only, constexpr, cooperative-groups group kinds).  Also the project's
 * file of a libclang file and whether a declaration is imported once. */
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

char *take_string(CXString s) {
  char *r = arena_strdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}



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
CgGroup cg_group_of(const char *ts, int *tile, CgGroup *parent) {
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

const char *real_path(const char *path) {
  const char *r = path_real(path);
  return r ? r : arena_strdup(path);
}

/* The project's file whose real path is real, or NULL. */
Source *project_file_of(Impl *im, const char *real) {
  for (int i = 0; i < im->reals.len; i++)
    if (!strcmp(im->reals.items[i], real))
      return im->project->files.items[i];
  return NULL;
}

/* The project's file that libclang's file f is, or NULL. */
Source *file_src(Impl *im, CXFile f) {
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
void set_tu(Impl *im, int i) {
  im->cur = i;
  free(im->files);
  im->files = NULL;
  im->fcap = im->fcount = 0;
}

/* Whether loc (its expansion) lies in a file of the project; *off is then
 * its offset in the project's text. */
bool loc_in_main(Impl *im, CXSourceLocation loc, unsigned *off) {
  CXFile f;
  unsigned o;
  clang_getExpansionLocation(loc, &f, NULL, NULL, &o);
  Source *src = file_src(im, f);
  if (off)
    *off = src ? src->base + o : o;
  return src != NULL;
}

/* Marks a declaration at off imported; false if it already was. */
bool first_sight(Impl *im, unsigned off) {
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

char *canonical_spelling(CXType t) {
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

/* Whether dependent type t is a specialization of a class template
 * (`Packed128<T>`, its canonical spelling `Packed128<type-parameter-0-0>`),
 * which no argument makes a pointer; not a template parameter's own
 * (`T`, `TT<T>`: an alias template may make it one), a dependent member
 * (`typename X<T>::type`) or a decltype. */
bool dependent_class(CXType t) {
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

Attrs cursor_attrs(CXCursor c) {
  Attrs a = {0};
  clang_visitChildren(c, attr_visit, &a);
  return a;
}

bool is_function_kind(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

/* Whether the tokens of a range hold `tok`. */
bool range_has_token(CXTranslationUnit tu, CXSourceRange r, const char *tok) {
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
bool decl_is_constexpr(CXCursor decl) {
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
Sym *sym_for(Unit *u, CXCursor decl) {
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
