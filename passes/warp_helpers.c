/* warp_helpers: helpers that only compute a value with warp-synchronous
 * calls (a shuffle reduction): such a helper's call is a value, not an
 * effect, so block mode may run it for a dead copy into a temporary, and
 * thread mode may keep it whole where its lanes stay together. */
#include "passes.h"
#include "effects_int.h"
#include <string.h>

/* ---- helpers that only compute with warp-synchronous calls ---- */

/* 1: computes a value with warp calls and no other effect; 0: computes a
 * value without them; -1: anything else (a store beyond its locals, an
 * effect, a barrier, assembly, a call tfuse cannot see). */
static int warp_value_rec(const Node *n, Vec *seen);

/* A store that writes the function's own locals or parameters (through a
 * reference parameter it writes the caller's argument, which the call site
 * checks: out_params), or a temporary (a call's result bound to `T &&`). */
static bool writes_own(Node *lv) {
  Node *n = strip_implicit(lv);
  if (n && n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_PARAM && (n->sym->is_reference || !n->sym->is_array))
    return true;
  if (n && n->kind == N_CALL && !n->is_launch)
    return true;
  return node_store_target(lv) != NULL;
}

/* One function a call may call (a dependent call's candidates each):
 * whatever it writes through its arguments or object must be the caller's
 * locals (`mySum += v` on a dependent type is a call of operator+=). */
static int warp_value_callee(const Node *call, Sym *fn, Vec *seen) {
  if (!fn || fn->kind != SYM_FUNC)
    return -1;
  Node *obj;
  bool obj_ptr;
  Vec args = {0};
  call_args(call, &obj, &obj_ptr, &args);
  int first = 0;
  if (!call->sym && fn->is_method && !obj && args.len) { /* a dependent operator: a member's object comes first */
    obj = args.items[0];
    first = 1;
  }
  bool ok = !(fn->is_method && !fn->is_const_method) || (obj && !obj_ptr && writes_own(obj));
  for (int i = first; ok && i < args.len; i++)
    if (i - first >= 32 || (fn->out_params >> (i - first) & 1))
      ok = i - first < 32 && writes_own(args.items[i]);
  vec_free(&args);
  if (!ok)
    return -1;
  switch (fn_class(fn)) {
  case FN_WARP:
    return 1;
  case FN_PURE:
  case FN_LOAD:
    return 0;
  case FN_BODY:
    for (int i = 0; i < seen->len; i++)
      if (seen->items[i] == fn)
        return -1; /* recursion */
    vec_push(seen, fn);
    int r = warp_value_rec(fn->body, seen);
    seen->len--;
    return r;
  default:
    return -1;
  }
}

/* 1: computes a value with warp calls and no other effect; 0: computes a
 * value without them; -1: anything else (a store beyond its locals, an
 * effect, a barrier, assembly, a call tfuse cannot see). */
/* call_is_warp_value: the parameters of the helper it looks into whose
 * argument is a tile of one warp (a template's `Group &g`: its collectives
 * are that tile's, not a barrier of a tile of several warps). */
static const Vec *wv_tile_params;

static bool wv_barrier(const Node *n) {
  if (!node_is_barrier(n))
    return false;
  if (!wv_tile_params || (n->sym && (fn_class(n->sym) == FN_BARRIER || node_is_block_reduce(n) ||
                                     node_is_cg_block_sync(n))))
    return true;
  Node *g = cg_group_operand(n);
  g = g ? strip_implicit(g) : NULL;
  if (!g || g->kind != N_DECL_REF || g->cg_group != CG_NONE || !cg_call_name(n) ||
      !strcmp(cg_call_name(n), "tiled_partition"))
    return true;
  for (int i = 0; i < wv_tile_params->len; i++)
    if (wv_tile_params->items[i] == g->sym)
      return false;
  return true;
}

static int warp_value_rec(const Node *n, Vec *seen) {
  if ((n->kind == N_ASSIGN || node_is_incdec(n)) && !writes_own(n->kid[0]))
    return -1;
  if (n->kind == N_ASM || n->kind == N_NEW || n->kind == N_LAMBDA || wv_barrier(n))
    return -1;
  int warp = 0;
  if (n->kind == N_CALL && !(!n->sym && !n->cand && call_is_construct(n))) {
    int count = n->sym ? 1 : n->ncand;
    if (!count)
      return -1;
    for (int i = 0; i < count; i++) {
      int k = warp_value_callee(n, n->sym ? n->sym : n->cand[i], seen);
      if (k < 0)
        return -1;
      warp |= k;
    }
  }
  for (int i = 0; i < n->nkid; i++) {
    int k = warp_value_rec(n->kid[i], seen);
    if (k < 0)
      return -1;
    warp |= k;
  }
  return warp;
}

bool call_is_value(const Node *call) {
  if (call->kind != N_CALL || call->is_launch)
    return false;
  int count = call->sym ? 1 : call->ncand;
  Vec seen = {0};
  bool r = count > 0;
  for (int i = 0; r && i < count; i++)
    r = warp_value_callee(call, call->sym ? call->sym : call->cand[i], &seen) == 0;
  vec_free(&seen);
  return r;
}

static bool callee_is_warp_value(const Node *call, Sym *fn);

bool call_is_warp_value(const Node *call) {
  if (call->kind != N_CALL)
    return false;
  int count = call->sym ? 1 : call->ncand;
  bool r = count > 0;
  for (int i = 0; r && i < count; i++)
    r = callee_is_warp_value(call, call->sym ? call->sym : call->cand[i]);
  return r;
}

/* One function the call may call (its callee, a candidate of a dependent
 * call): a warp value for these arguments. */
static bool callee_is_warp_value(const Node *call, Sym *fn) {
  if (!fn || fn->kind != SYM_FUNC || fn_class(fn) != FN_BODY)
    return false;
  /* Groups passed by reference only to parameters the body never changes
   * (a template's `Group &g`, cuda-samples' cg_reduce_n); those bound to a
   * tile of one warp noted for wv_barrier. */
  Node *obj;
  bool obj_ptr;
  Vec args = {0}, tiles = {0};
  call_args(call, &obj, &obj_ptr, &args);
  bool ok = !obj || !fn->out_params;
  for (int i = 0; ok && i < 32 && i < args.len; i++) {
    Node *a = strip_implicit(args.items[i]);
    Sym *p = param_sym(fn, i);
    if (fn->out_params >> i & 1)
      ok = (fn->ref_params >> i & 1) && a->cg_group != CG_NONE && p && !cg_group_var_written(fn->body, p);
    if (ok && p && a->cg_group == CG_TILE)
      vec_push(&tiles, p);
  }
  vec_free(&args);
  if (!ok) {
    vec_free(&tiles);
    return false;
  }
  Vec seen = {0};
  vec_push(&seen, fn);
  wv_tile_params = &tiles;
  bool r = warp_value_rec(fn->body, &seen) == 1;
  wv_tile_params = NULL;
  vec_free(&tiles);

  vec_free(&seen);
  return r;
}

bool fn_computes_value(const Sym *fn) {
  if (!fn || fn->kind != SYM_FUNC || fn_class(fn) != FN_BODY || fn->out_params)
    return false;
  Vec seen = {0};
  vec_push(&seen, (void *)fn);
  bool r = warp_value_rec(fn->body, &seen) == 0;
  vec_free(&seen);
  return r;
}

bool fn_is_warp_value(const Sym *fn) {
  if (!fn || fn->kind != SYM_FUNC || fn_class(fn) != FN_BODY || fn->out_params)
    return false;
  Vec seen = {0};
  vec_push(&seen, (void *)fn);
  bool r = warp_value_rec(fn->body, &seen) == 1;
  vec_free(&seen);
  return r;
}
