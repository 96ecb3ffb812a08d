/* build: libclang's cursors to tfuse's own tree (Node).
 *
 * Contract: build() turns a function's cursor and everything under it into
 * Nodes (kinds from constructs.def's rows, each node's row kept for the
 * census), with offsets in the project's text (the expansion location for
 * macro-expanded code), operators and builtins (`threadIdx.x` is one
 * N_BUILTIN node), the control parts of statements, launch configurations,
 * and for a call the Sym it reaches, or the candidates a template's pattern
 * leaves open (see "callees a template's pattern leaves open").  Symbols
 * come from symbols.c; what the tree cannot say (a builtin spelled in a
 * macro's argument, an extent ending inside a macro use) is recorded on the
 * unit for parse.c to settle after the visit. */
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
void macro_arg_pastes(Unit *u) {
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

Node *build(Unit *u, CXCursor c, Node *parent) {
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

void build_dispose(Impl *im) {
  for (int i = 0; i < im->member_scans.len; i++)
    vec_free(&((MemberScan *)im->member_scans.items[i])->fns);
  vec_free(&im->member_scans);
}
