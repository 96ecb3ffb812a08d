/* promote: register promotion of shared-memory re-reads (DESIGN.md sec. 6).
 *
 * Contract: requires uniform_analyze and a passing legality_check; fills
 * Kernel.promoted with a Promo for every shared array that may be promoted,
 * sets Sym.promoted on it and Node.promo on its accesses at the owner's
 * index.  fuse.c then gives each copy a register for
 * the element it owns, writes every store through to shared memory, and
 * reads the register wherever the kernel reads the owner's own element.
 * Nothing else changes: reads of other threads' elements stay loads.
 *
 * An array is promoted when all of these hold (else -report says which
 * one failed, at the construct):
 *   - every use is an element access A[i]...[j] of full rank: no address
 *     taken, no decay to a pointer, no atomic, not used outside the kernel;
 *   - its element type is a scalar and it is neither volatile nor extern;
 *   - every store is at one and the same *owner's index*: each subscript is
 *     a thread coordinate (threadIdx.d, or a local initialized to it and
 *     never written), one dimension per subscript, so no two threads of a
 *     block share an element;
 *   - every dimension the index leaves out is 1 at every launch of the
 *     kernel in the file (dim3(32, 32) has z = 1; an int block has y = z = 1),
 *     since two threads differing only there would share an element;
 *   - the owner re-reads its own element somewhere (else there is nothing
 *     to gain).
 * Then no thread can change an element between its owner's write and the
 * owner's re-read, so the register always holds what shared memory holds.
 *
 *   before (thread mode along y, K = 2):   after:
 *     A[y][x] = in[..];                      A[y_0][x] = A_reg_0 = in[..];
 *     __syncthreads();                       A[y_1][x] = A_reg_1 = in[..];
 *     float a = A[y][x] + A[x][y];           __syncthreads();
 *                                            float a_0 = A_reg_0 + A[x][y_0];
 *                                            float a_1 = A_reg_1 + A[x][y_1];
 */
#include "passes.h"

#include <string.h>

typedef struct {
  Unit *u;
  Kernel *k;
  Node *body;
} PA;

/* The child of `p` on the way down to `n` (skipping parentheses). */
static bool is_operand(Node *p, int i, Node *n) { return p->nkid > i && node_strip(p->kid[i]) == n; }

/* Every reference to `s` inside `n`. */
static void refs_of(Node *n, Sym *s, Vec *out) {
  if (n->kind == N_DECL_REF && n->sym == s)
    vec_push(out, n);
  for (int i = 0; i < n->nkid; i++)
    refs_of(n->kid[i], s, out);
}

static void shared_arrays(Node *n, Vec *out) {
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_SHARED && n->sym->is_array) {
    for (int i = 0; i < out->len; i++)
      if (out->items[i] == n->sym)
        goto kids;
    vec_push(out, n->sym);
  }
kids:
  for (int i = 0; i < n->nkid; i++)
    shared_arrays(n->kid[i], out);
}

/* The full-rank access A[i]..[j] that reference `ref` starts, or NULL;
 * idx receives the subscripts, outermost first. */
static Node *full_access(Node *ref, int rank, Node **idx) {
  Node *n = ref;
  for (int d = 0; d < rank; d++) {
    Node *p = node_parent(n);
    if (!p || p->kind != N_SUBSCRIPT || !is_operand(p, 0, n))
      return NULL;
    idx[d] = p->nkid > 1 ? p->kid[1] : NULL;
    n = p;
  }
  return n;
}

/* Whether local `s` is written anywhere in the kernel after its declaration. */
static bool local_written(PA *pa, Sym *s) {
  Vec refs = {0};
  refs_of(pa->body, s, &refs);
  bool written = s->addr_taken;
  for (int i = 0; i < refs.len && !written; i++) {
    Node *r = refs.items[i];
    Node *p = node_parent(r);
    if (!p)
      continue;
    if (p->kind == N_ASSIGN && is_operand(p, 0, r))
      written = true;
    else if ((p->kind == N_UNOP && p->op == OP_ADDR) || node_is_incdec(p))
      written = true;
    else if (p->kind == N_CALL && call_passes_by_ref(p, r))
      written = true;
  }
  vec_free(&refs);
  return written;
}

/* The block dimension (0..2) a subscript is the thread coordinate of, or
 * -1.  *key identifies the coordinate for comparing accesses. */
static int coordinate(PA *pa, Node *e, const void **key) {
  Node *n = node_strip(e);
  if (n->kind == N_BUILTIN && n->bi == BI_THREADIDX && n->bi_dim >= 0 && !n->in_macro) {
    *key = (const void *)(intptr_t)(n->bi_dim + 1);
    return n->bi_dim;
  }
  /* A local copy of threadIdx.d, in a type that holds every index (1024). */
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_LOCAL && !n->sym->is_array &&
      !n->sym->is_reference && n->sym->int_bytes >= 2) {
    Node *v = node_find_var(pa->body, n->sym);
    Node *init = v ? var_init(v) : NULL;
    Node *b = init ? node_strip(init) : NULL;
    if (b && b->kind == N_BUILTIN && b->bi == BI_THREADIDX && b->bi_dim >= 0 && !local_written(pa, n->sym)) {
      *key = n->sym;
      return b->bi_dim;
    }
  }
  return -1;
}

/* ---- launch evidence: is blockDim.d 1 at every launch? ---- */

static bool inside(Node *n, Node *anc) {
  for (; n; n = n->parent)
    if (n == anc)
      return true;
  return false;
}

/* How many block dimensions a launch's block expression may set (1..3),
 * or 0 if unknown.  Dimensions past it are 1. */
static int block_rank(Unit *u, Node *launch, Node *e, int depth) {
  Node *n = node_strip(e);
  if (!n || depth > 4)
    return 0;
  if (n->type_integral)
    return 1;
  if (n->kind == N_CALL && n->type_dim3 && n->spelling && !strcmp(n->spelling, "dim3")) {
    int explicit_args = 0;
    Node *only = NULL;
    for (int i = 0; i < n->nkid; i++) {
      Node *a = n->kid[i];
      if (a->kind == N_TYPE_REF || a->end <= a->begin)
        continue; /* a default argument has no extent */
      explicit_args++;
      only = a;
    }
    if (explicit_args == 1 && node_strip(only)->type_dim3)
      return block_rank(u, launch, only, depth + 1); /* a copy of another dim3 */
    return explicit_args >= 1 && explicit_args <= 3 ? explicit_args : 0;
  }
  if (n->kind == N_DECL_REF && n->sym && n->sym->kind == SYM_LOCAL) {
    /* A dim3 local used only in launch configurations. */
    Node *fn = node_root(launch);
    Node *v = node_find_var(fn, n->sym);
    Node *init = v ? var_init(v) : NULL;
    if (!init)
      return 0;
    Vec refs = {0};
    refs_of(fn, n->sym, &refs);
    bool only_configs = true;
    for (int i = 0; i < refs.len; i++) {
      Node *r = refs.items[i];
      bool in_cfg = false;
      for (Node *p = r->parent; p && !in_cfg; p = p->parent)
        in_cfg = p->is_launch && inside(r, p->kid[1]);
      only_configs &= in_cfg;
    }
    vec_free(&refs);
    if (!only_configs)
      return 0;
    /* `dim3 b(32, 32)` keeps its constructor call as the initializer. */
    return block_rank(u, launch, init, depth + 1);
  }
  return 0;
}

/* Offset of a launch whose block may be > 1 along `dim`, or ~0u if none. */
static unsigned launch_with_extent(Unit *u, Kernel *k, int dim, bool *none) {
  *none = true;
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    if (call->sym != k->sym)
      continue;
    *none = false;
    Node *cfg = call->kid[1];
    int first = call_first_arg(cfg);
    int rank = cfg->nkid > first + 1 ? block_rank(u, call, cfg->kid[first + 1], 0) : 0;
    if (rank == 0 || rank > dim)
      return call->begin;
  }
  return ~0u;
}

/* ---- the decision for one array ---- */

static char *access_text(Unit *u, Node *acc) {
  return arena_strndup(u->src->text + acc->begin, acc->end - acc->begin);
}

static bool decide(PA *pa, Sym *s, Promo *pr, bool report) {
  Unit *u = pa->u;
  Kernel *k = pa->k;
  unsigned at = s->decl_off != ~0u ? s->decl_off : k->fn->loc;
#define NOT_PROMOTED(off, ...)                                                                                   \
  do {                                                                                                         \
    if (report)                                                                                                \
      remark_at(off, __VA_ARGS__);                                                                             \
    return false;                                                                                              \
  } while (0)
  if (s->is_extern)
    NOT_PROMOTED(at, "shared array '%s' is not promoted to registers: it is extern", s->name);
  if (s->is_volatile)
    NOT_PROMOTED(at, "shared array '%s' is not promoted to registers: it is volatile", s->name);
  if (!s->elem_scalar || !s->elem_type || s->rank < 1 || s->rank > 8)
    NOT_PROMOTED(at, "shared array '%s' is not promoted to registers: its element type is not a scalar", s->name);
  /* A file-scope array may be touched by other functions (the file's, and
   * the headers' that the analysis loaded). */
  for (int i = 0; i < u->functions.len + u->extern_functions.len; i++) {
    Node *fn = i < u->functions.len ? u->functions.items[i] : u->extern_functions.items[i - u->functions.len];
    if (fn == k->fn || !fn->sym || !fn->sym->body)
      continue;
    Vec refs = {0};
    refs_of(fn->sym->body, s, &refs);
    Node *first = refs.len ? refs.items[0] : NULL;
    unsigned off = first && first->end > first->begin ? first->begin : at; /* a header's node: no offset */
    int n = refs.len;
    vec_free(&refs);
    if (n)
      NOT_PROMOTED(off, "shared array '%s' is not promoted to registers: function '%s' uses it too", s->name,
                   fn->sym->name);
  }

  Vec refs = {0};
  refs_of(pa->body, s, &refs);
  Node **idx = arena_alloc(sizeof(Node *) * (size_t)s->rank);
  const void **keys = arena_alloc(sizeof(void *) * (size_t)s->rank);
  const void **want = NULL;
  int *dims = arena_alloc(sizeof(int) * (size_t)s->rank);
  Node *first_store = NULL;
  int own_reads = 0;
  bool ok = true;
  for (int i = 0; i < refs.len && ok; i++) {
    Node *r = refs.items[i];
    Node *acc = full_access(r, s->rank, idx);
    if (!acc) {
      if (report)
        remark_at(r->begin, "shared array '%s' is not promoted to registers: it is used here other than as an "
                            "element access, so its address may escape", s->name);
      ok = false;
      break;
    }
    Node *p = node_parent(acc);
    bool store = false;
    if (p && p->kind == N_UNOP && p->op == OP_ADDR) {
      Node *call = node_parent(p);
      if (!report)
        ;
      else if (call && call->kind == N_CALL && call->sym && !strncmp(call->sym->name, "atomic", 6))
        remark_at(p->begin, "shared array '%s' is not promoted to registers: '%s' updates it atomically",
                  s->name, call->sym->name);
      else
        remark_at(p->begin, "shared array '%s' is not promoted to registers: the address of its element is taken",
                  s->name);
      ok = false;
      break;
    }
    if (p && p->kind == N_ASSIGN && is_operand(p, 0, acc))
      store = true;
    else if (p && node_is_incdec(p)) {
      store = true;
      Node *pp = node_parent(p);
      bool value_used = !(pp && (pp->kind == N_COMPOUND || (pp->kind == N_FOR && pp->inc == p) ||
                                 pp->kind == N_IF || pp->kind == N_WHILE || pp->kind == N_DO ||
                                 pp->kind == N_FOR || pp->kind == N_CASE || pp->kind == N_LABEL));
      if ((p->op == OP_POST_INC || p->op == OP_POST_DEC) && value_used) {
        if (report)
          remark_at(p->begin, "shared array '%s' is not promoted to registers: the value of this postfix "
                              "update is used", s->name);
        ok = false;
        break;
      }
    } else if (p && p->kind == N_CALL && call_passes_by_ref(p, acc)) {
      if (report)
        remark_at(acc->begin, "shared array '%s' is not promoted to registers: its element is passed by "
                              "reference to '%s'", s->name, p->sym->name);
      ok = false;
      break;
    }
    bool own = true;
    for (int d = 0; d < s->rank; d++) {
      Node *e = idx[d]; /* A[i][j]: idx[0] is i */
      int dim = e ? coordinate(pa, e, &keys[d]) : -1;
      dims[d] = dim;
      if (dim < 0)
        own = false;
    }
    if (own)
      for (int a = 0; a < s->rank; a++)
        for (int b = a + 1; b < s->rank; b++)
          if (dims[a] == dims[b])
            own = false;
    if (own && want)
      for (int d = 0; d < s->rank; d++)
        if (keys[d] != want[d])
          own = false;
    if (store) {
      if (!own) {
        if (report)
          remark_at(acc->begin, "shared array '%s' is not promoted to registers: this store to %s is not at the "
                                "storing thread's own index%s%s", s->name, access_text(u, acc),
                    first_store ? ", which is " : "", first_store ? access_text(u, first_store) : "");
        ok = false;
        break;
      }
      if (!want) {
        want = arena_alloc(sizeof(void *) * (size_t)s->rank);
        memcpy(want, keys, sizeof(void *) * (size_t)s->rank);
        pr->dims = arena_alloc(sizeof(int) * (size_t)s->rank);
        memcpy(pr->dims, dims, sizeof(int) * (size_t)s->rank);
        first_store = acc;
      }
    }
  }
  if (!ok) {
    vec_free(&refs);
    return false;
  }
  if (!first_store) {
    vec_free(&refs);
    NOT_PROMOTED(at, "shared array '%s' is not promoted to registers: the kernel never stores to it", s->name);
  }
  /* The accesses at the owner's index, now that it is known; reads of it
   * are what promotion gains. */
  for (int i = 0; i < refs.len; i++) {
    Node *acc = full_access(refs.items[i], s->rank, idx);
    bool own = true;
    for (int d = 0; d < s->rank && own; d++)
      own = idx[d] && coordinate(pa, idx[d], &keys[d]) >= 0 && keys[d] == want[d];
    if (!own)
      continue;
    vec_push(&pr->accesses, acc);
    Node *p = node_parent(acc);
    own_reads += !(p && p->kind == N_ASSIGN && is_operand(p, 0, acc) && p->op == OP_ASSIGN);
  }
  vec_free(&refs);
  if (own_reads == 0)
    NOT_PROMOTED(first_store->begin, "shared array '%s' is not promoted to registers: no thread re-reads its own "
                 "element %s", s->name, access_text(u, first_store));

  /* Threads differing only in a dimension the index leaves out would share
   * an element: each such dimension must be 1 at every launch. */
  for (int d = 0; d < 3; d++) {
    bool covered = false;
    for (int j = 0; j < s->rank; j++)
      covered |= pr->dims[j] == d;
    if (covered)
      continue;
    if (k->p.mode == MODE_THREAD && (params_multi(&k->p) ? k->p.kd[d] > 1 : d == k->p.dim))
      NOT_PROMOTED(first_store->begin, "shared array '%s' is not promoted to registers: its owner's index %s does "
                   "not use threadIdx.%s, along which the merged threads differ, so they would share the element",
                   s->name, access_text(u, first_store), dim_name(d));
    bool none;
    unsigned off = launch_with_extent(u, k, d, &none);
    if (none)
      NOT_PROMOTED(first_store->begin, "shared array '%s' is not promoted to registers: its owner's index %s does "
                   "not use threadIdx.%s, and no launch of '%s' in this file shows that blockDim.%s is 1",
                   s->name, access_text(u, first_store), dim_name(d), k->sym->name, dim_name(d));
    if (off != ~0u)
      NOT_PROMOTED(off, "shared array '%s' is not promoted to registers: its owner's index %s does not use "
                   "threadIdx.%s, and this launch may have blockDim.%s > 1", s->name,
                   access_text(u, first_store), dim_name(d), dim_name(d));
  }
  pr->keys = want;
  pr->index_text = access_text(u, first_store);
#undef NOT_PROMOTED
  return true;
}

void promote_analyze(Unit *u, Kernel *k, const Options *opt) {
  PA pa = {.u = u, .k = k, .body = k->fn->sym->body};
  Vec arrays = {0};
  shared_arrays(pa.body, &arrays);
  if (!opt->promote) {
    if (opt->report && arrays.len)
      remark_at(k->fn->loc, "register promotion is off (-no-promote): the shared arrays of '%s' keep their "
                            "loads", k->sym->name);
    vec_free(&arrays);
    return;
  }
  for (int i = 0; i < arrays.len; i++) {
    Sym *s = arrays.items[i];
    Promo *pr = arena_alloc(sizeof *pr);
    pr->arr = s;
    if (!decide(&pa, s, pr, opt->report))
      continue;
    s->promoted = true;
    pr->per_copy = s->varying || k->p.mode == MODE_THREAD;
    for (int j = 0; j < pr->accesses.len; j++)
      ((Node *)pr->accesses.items[j])->promo = pr;
    vec_push(&k->promoted, pr);
    if (opt->report)
      remark_at(s->decl_off != ~0u ? s->decl_off : k->fn->loc,
                "shared array '%s' is promoted to registers: every store is at the owner's index %s, so each "
                "%s keeps its element in a register and reads it from there",
                s->name, pr->index_text, pr->per_copy ? "logical thread" : "thread");
  }
  vec_free(&arrays);
}
