/* ast: questions about the syntax tree and the project's text that every
 * pass asks, answered from the tree and the text alone.
 *
 * Contract: requires a parsed unit (parse.c builds the tree); provides
 * node and symbol queries (node_strip, node_parent, var_init, the kinds of
 * calls and statements, the cooperative-groups names of calls) and text
 * queries (text_match, stmt_end, unit_has_ident).  Nothing here analyses a
 * kernel or knows a function's class: it calls no other pass, so every
 * pass, parse.c included, may call it.
 *
 *   node_strip(`((int)x)`)         the node of x
 *   stmt_end(src, `f(a)`)          the offset past its `;`
 */
#include "passes.h"

#include <string.h>

Node *node_strip(Node *n) {
  while (n && (n->kind == N_PAREN || n->kind == N_UNEXPOSED || (n->kind == N_CAST && n->nkid >= 1)) &&
         n->nkid >= 1) {
    /* Casts keep their operand as the last child (a TypeRef may precede). */
    n = n->kid[n->nkid - 1];
  }
  return n;
}

Node *node_parent(Node *n) {
  Node *p = n->parent;
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN))
    p = p->parent;
  return p;
}

bool node_is_incdec(const Node *n) { return n->kind == N_UNOP && n->op >= OP_POST_INC && n->op <= OP_PRE_DEC; }

bool node_has_side_effects(const Node *n) {
  if (n->kind == N_CALL || n->kind == N_ASSIGN || node_is_incdec(n))
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (node_has_side_effects(n->kid[i]))
      return true;
  return false;
}

bool lambda_capture_init(const char *text, const Node *lam, const Node *k) {
  if (k->kind == N_PARAM || k == lam->kid[lam->nkid - 1] || k->kind == N_OTHER)
    return false;
  for (int i = 0; i < lam->nkid; i++)
    if (lam->kid[i]->captured && lam->kid[i]->loc == k->loc)
      return false;
  return !(k->kind == N_DECL_REF && k->sym && k->sym->name &&
           strncmp(text + k->loc, k->sym->name, strlen(k->sym->name)));
}

Node *node_find_var(Node *n, const Sym *s) {
  if (n->kind == N_VAR && n->sym == s)
    return n;
  for (int i = 0; i < n->nkid; i++) {
    Node *v = node_find_var(n->kid[i], s);
    if (v)
      return v;
  }
  return NULL;
}

Node *var_init(Node *var) {
  if (var->kind == N_VAR && !var->has_var_init)
    return NULL;
  for (int i = var->nkid - 1; i >= 0; i--) {
    NodeKind k = var->kid[i]->kind;
    if (k != N_TYPE_REF && k != N_OTHER)
      return var->kid[i];
  }
  return NULL;
}

bool expr_has_load(const Node *n) {
  if (!n)
    return false;
  if (n->kind == N_SUBSCRIPT || (n->kind == N_UNOP && n->op == OP_DEREF) || (n->kind == N_MEMBER && n->arrow))
    return true;
  if (n->kind == N_DECL_REF && n->sym && (n->sym->kind == SYM_GLOBAL || n->sym->kind == SYM_SHARED))
    return true;
  if (n->kind == N_CALL)
    return true; /* a call may read memory */
  for (int i = 0; i < n->nkid; i++)
    if (expr_has_load(n->kid[i]))
      return true;
  return false;
}

/* `T(x)` in a template: a construction, not a call of unknown code. */
bool call_is_construct(const Node *call) {
  return !call->sym && (call->nkid == 0 || call->kid[0]->kind == N_TYPE_REF);
}

int call_first_arg(const Node *call) {
  if (call->nkid == 0)
    return 0;
  Node *c0 = node_strip(call->kid[0]);
  if ((c0->kind == N_DECL_REF && c0->sym == call->sym) || c0->kind == N_MEMBER || (!call->sym && call->cand))
    return 1;
  return 0;
}

bool arg_is_default(const Node *a) { return a->kind == N_UNEXPOSED && a->nkid == 0; }

/* Declared in namespace cooperative_groups (not: a function that takes a
 * group, whose USR names the parameter's type). */
bool sym_is_cooperative_groups(const Sym *s) {
  return s && s->usr && !strncmp(s->usr, "c:@N@cooperative_groups@", 24);
}

/* `cg::this_thread_block()`: the handle of the physical block, the same in
 * every thread and copy (cooperative groups' only use tfuse follows). */
bool node_is_cg_block_handle(const Node *n) {
  return n->kind == N_CALL && n->sym && sym_is_cooperative_groups(n->sym) && n->sym->name &&
         !strcmp(n->sym->name, "this_thread_block");
}

/* The cooperative-groups function a call calls: its callee, or the one name
 * every candidate of a dependent call shares in the namespace. */
const char *cg_call_name(const Node *n) {
  if (n->kind != N_CALL)
    return NULL;
  if (n->sym)
    return sym_is_cooperative_groups(n->sym) ? n->sym->name : NULL;
  for (int i = 0; i < n->ncand; i++)
    if (!sym_is_cooperative_groups(n->cand[i]) || !n->cand[i]->name ||
        strcmp(n->cand[i]->name, n->cand[0]->name))
      return NULL;
  return n->ncand ? n->cand[0]->name : NULL;
}

unsigned text_match(const Source *src, unsigned open, unsigned limit) {
  const char *t = src->text;
  int depth = 0;
  for (unsigned i = open; i < limit; i++) {
    char c = t[i];
    if (c == '/' && i + 1 < limit && t[i + 1] == '/') {
      while (i < limit && t[i] != '\n')
        i++;
    } else if (c == '/' && i + 1 < limit && t[i + 1] == '*') {
      for (i += 2; i + 1 < limit && !(t[i] == '*' && t[i + 1] == '/'); i++)
        ;
      i++;
    } else if (c == '"' || c == '\'') {
      for (i++; i < limit && t[i] != c; i++)
        if (t[i] == '\\')
          i++;
    } else if (c == '(' || c == '[' || c == '{') {
      depth++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0)
        return i + 1;
    }
  }
  return limit;
}

unsigned stmt_end(const Source *src, const Node *n) {
  /* A braced body or declaration ends at its `}`; an expression statement
   * ending in a braced temporary (`r = Rec{a, b};`) still has its `;`. */
  bool expr = !(n->kind >= N_FUNC && n->kind <= N_ATTRIBUTED);
  if (n->end > n->begin && (src->text[n->end - 1] == ';' || (src->text[n->end - 1] == '}' && !expr)))
    return n->end;
  unsigned p = source_skip_space(src, n->end);
  return p < src->len && src->text[p] == ';' ? p + 1 : n->end;
}

bool unit_has_ident(const Unit *u, const char *name) {
  size_t n = strlen(name);
  const char *t = u->src->text;
  for (const char *p = strstr(t, name); p; p = strstr(p + 1, name)) {
    bool left = p == t || !ident_char(p[-1]);
    bool right = !ident_char(p[n]);
    if (left && right)
      return true;
  }
  return false;
}

/* The offset of the `)` closing a function's parameter list. */
unsigned fn_params_close(const Source *src, const Node *fn) {
  unsigned p = fn->loc;
  while (p < src->len && src->text[p] != '(')
    p++;
  return text_match(src, p, (unsigned)src->len) - 1;
}

/* Whether a function's parameter list is empty or `(void)`. */
bool fn_params_empty(const Source *src, const Node *fn, unsigned close) {
  unsigned p = fn->loc;
  while (p < close && src->text[p] != '(')
    p++;
  unsigned q = source_skip_space(src, p + 1);
  return q >= close || (close - q == 4 && !strncmp(src->text + q, "void", 4));
}

/* The top of n's tree: the function whose body holds n. */
Node *node_root(Node *n) {
  while (n->parent)
    n = n->parent;
  return n;
}

bool node_same_text(const Source *src, const Node *a, const Node *b) {
  const char *t = src->text;
  unsigned i = a->begin, j = b->begin;
  for (;;) {
    while (i < a->end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n'))
      i++;
    while (j < b->end && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n'))
      j++;
    if (i >= a->end || j >= b->end)
      return i >= a->end && j >= b->end;
    if (t[i++] != t[j++])
      return false;
  }
}
