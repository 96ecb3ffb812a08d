/* legality_kernel: the checks of a kernel as a whole, after the walk of its
 * code.
 *
 * Contract: each refuses through refuse() with the reason at its place:
 * replicated static shared memory over the 48 KB a block may declare
 * (block mode), shared memory a helper declares outside the kernel,
 * preprocessor-skipped lines inside the kernel's body (code tfuse cannot
 * see), a grid-wide synchronisation, a construct without a row in the
 * construct table (constructs.def, the census's rows), and threads that
 * communicate through shared memory without a barrier where thread mode
 * would split their warps. */
#include "passes.h"
#include "legality_int.h"
#include <stdarg.h>
#include <string.h>

/* Block mode replicates a shared variable K times: the static total must
 * stay within the 48 KB a block may declare statically (CUDA programming
 * guide, "Shared Memory"), or ptxas rejects the output.  Refused here, with
 * the numbers, rather than written for nvcc to reject.  A size clang cannot
 * tell (a template's dependent type) is left to nvcc. */
void check_static_shared(Legal *L) {
  Kernel *k = L->k;
  if (k->p.mode != MODE_BLOCK)
    return;
  Vec vars = {0};
  kernel_shared_vars(k->fn, &vars);
  long long total = 0, replicated = 0;
  Sym *largest = NULL;
  for (int i = 0; i < vars.len; i++) {
    Sym *s = vars.items[i];
    if (s->is_extern)
      continue; /* dynamic: not part of the static size */
    if (s->bytes < 0) {
      vec_free(&vars);
      return;
    }
    total += s->bytes * params_shared_replicas(&k->p, s);
    if (s->varying) {
      replicated += s->bytes;
      if (!largest || s->bytes > largest->bytes)
        largest = s;
    }
  }
  vec_free(&vars);
  const long long limit = 48 * 1024;
  if (largest && total > limit)
    refuse(L, largest->decl_off != ~0u ? largest->decl_off : k->fn->loc,
           "coarsened by %s, '%s' would declare %lld bytes of static __shared__ memory (%lld bytes replicated per "
           "logical block, '%s' the largest), over the %lld bytes a block may declare statically; use a smaller -factor",
           params_factor_text(&k->p), k->sym->name, total, replicated, largest->name, limit);
}

/* The function whose body declares the variable s, or NULL (file scope, or
 * outside the project's text). */
static Node *declaring_function(const Legal *L, const Sym *s) {
  if (s->decl_off == ~0u)
    return NULL;
  for (int i = 0; i < L->u->functions.len; i++) {
    Node *f = L->u->functions.items[i];
    if (f->begin <= s->decl_off && s->decl_off < f->end && f->end > f->begin)
      return f;
  }
  return NULL;
}

static bool body_declares(const Node *n, const Sym *s) {
  if (n->kind == N_VAR && n->sym == s)
    return true;
  for (int i = 0; i < n->nkid; i++)
    if (body_declares(n->kid[i], s))
      return true;
  return false;
}

/* The innermost node of n whose own evaluation (its callee, a default
 * argument, an implicit member), not a child's, names s. */
static Node *names_shared_at(Node *n, const Sym *s) {
  if (n->kind == N_VAR && n->sym && n->sym->varying && sym_is_dyn_shared_view(n->sym))
    return NULL; /* copy r's view is moved to share r (fuse.c) */
  for (int i = 0; i < n->nkid; i++) {
    Node *hit = names_shared_at(n->kid[i], s);
    if (hit)
      return hit;
  }
  if (n->kind != N_CALL && n->kind != N_VAR && n->kind != N_NEW)
    return NULL;
  Reads r = {0};
  reads_of(n, &r);
  bool hit = false;
  for (int i = 0; i < r.shared.len && !hit; i++)
    hit = r.shared.items[i] == s;
  reads_free(&r);
  return hit ? n : NULL;
}

/* Block mode replicates a shared variable per logical block by renaming the
 * kernel's own uses, and moves views of the dynamic shared memory (`T *s =
 * SharedMemory<T>();`, effects.c) to the copy's share.  One declared in
 * another function (a helper, a member function, a conversion operator,
 * `extern __shared__` or static) that the kernel reaches by another path,
 * an implicit call included, would keep one copy for all logical blocks:
 * refused, naming the function that declares it. */
void check_outside_shared(Legal *L) {
  if (L->k->p.mode != MODE_BLOCK)
    return;
  Vec vars = {0}, sites = {0};
  kernel_shared_vars(L->k->fn, &vars);
  for (int i = 0; i < vars.len; i++) {
    Sym *s = vars.items[i];
    bool done = false;
    for (int j = 0; j < L->shared_refused.len && !done; j++)
      done = L->shared_refused.items[j] == s;
    Node *f = s->varying && !done ? declaring_function(L, s) : NULL;
    if (!f || f == L->k->fn || (L->k->fn->sym && f->sym == L->k->fn->sym) ||
        body_declares(L->k->fn->sym->body, s))
      continue; /* file scope, or the kernel's own (an extern array other kernels declare too) */
    Node *at = names_shared_at(L->k->fn->sym->body, s);
    if (!at && s->is_extern)
      continue; /* named only through dynamic shared views */
    bool again = false;
    for (int j = 0; j < sites.len && !again; j++)
      again = sites.items[j] == at;
    if (again)
      continue; /* one refusal per place (`SharedMemory<T>()` may run either conversion) */
    vec_push(&sites, at);
    refuse(L, at ? at->begin : L->k->fn->loc,
           "'%s' declares __shared__ '%s', which block mode must replicate per logical block, and the kernel reaches "
           "it %s; tfuse replicates only shared memory the kernel declares or names itself; declare it in the kernel "
           "(or pass it as an argument)", written_name(L, f), s->name,
           at && at->kind == N_CALL && (at->sym || at->cand) ? "through this call"
                                                              : "through code that runs without a call in the text");
  }
  vec_free(&vars);
  vec_free(&sites);
}

/* Whether the directive at p is `#if 0`, whose lines no compilation sees. */
static bool directive_is_if0(const Source *src, unsigned p) {
  const char *t = src->text;
  p++;
  while (p < src->len && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p + 2 >= src->len || strncmp(t + p, "if", 2) || (t[p + 2] != ' ' && t[p + 2] != '\t'))
    return false;
  for (p += 2; p < src->len && (t[p] == ' ' || t[p] == '\t');)
    p++;
  return p + 1 < src->len && t[p] == '0' && (t[p + 1] == '\n' || t[p + 1] == ' ' || t[p + 1] == '\t' ||
                                              t[p + 1] == '/');
}

/* Lines of the kernel's body the host-side parse skipped that the device
 * compilation may not (`#if __CUDA_ARCH__ >= 700`, an `#else`): tfuse
 * neither sees nor rewrites them, and fuse.c would copy them as they are,
 * reading the physical block.  Only `#if 0` is skipped by both. */
void check_skipped_lines(Legal *L, const Node *body) {
  const Source *src = L->u->src;
  const char *t = src->text;
  unsigned dir = body->begin;
  bool have_dir = false;
  for (unsigned i = body->begin + 1; i < body->end && i < src->len; i++) {
    if (t[i - 1] != '\n')
      continue;
    unsigned p = i;
    while (p < body->end && (t[p] == ' ' || t[p] == '\t'))
      p++;
    if (p >= body->end || t[p] == '\n')
      continue;
    if (t[p] == '#') {
      dir = p;
      have_dir = true;
      unsigned w = p + 1;
      while (w < body->end && (t[w] == ' ' || t[w] == '\t'))
        w++;
      if (w + 7 <= src->len && !strncmp(t + w, "include", 7)) {
        /* The included file's statements are part of the body, but not of
         * its text, which is what tfuse writes out per copy (HeCBench
         * wsm5's `#include "constants.h"` of declarations and macros). */
        refuse(L, p, "an #include inside the kernel's body: the included statements are not in the kernel's text, "
                     "which tfuse rewrites; include the file before the kernel");
        return;
      }
      continue;
    }
    if (have_dir && unit_is_skipped(L->u, p) && !directive_is_if0(src, dir)) {
      refuse(L, dir, "part of the kernel's body is under a preprocessor condition the host-side parse skips "
                     "(__CUDA_ARCH__, say): tfuse cannot see or rewrite that code; write the kernel so both sides "
                     "see the same statements");
      return;
    }
  }
}

/* Whether n synchronises the whole grid: `grid.sync()`, `cg::sync(grid)`
 * (a grid_group's sync, by name and group type). */
static bool node_is_grid_sync(const Node *n) {
  if (n->kind != N_CALL || !n->sym || !sym_is_cooperative_groups(n->sym) || !n->sym->name ||
      strcmp(n->sym->name, "sync"))
    return false;
  Node *g = cg_group_operand(n);
  return g && g->cg_group == CG_GRID;
}

/* The first grid-wide synchronisation the kernel reaches, in its text or
 * through a helper (cuda-samples' conjugate gradient's PeerGroup::sync):
 * no coarsening keeps it (block mode would need the cooperative launch's
 * grid rescaled, thread mode the grid's threads), so it is the kernel's
 * reason, given before whatever else the walk would find. */
bool check_grid_sync(Legal *L, Node *n) {
  if (node_is_grid_sync(n)) {
    refuse(L, n->begin, "cooperative groups ('sync'): grid-wide synchronisation: coarsening changes the grid, and "
           "tfuse does not rewrite cooperative launches");
    return true;
  }
  if (n->kind == N_CALL) {
    int count = n->sym ? 1 : n->ncand;
    for (int i = 0; i < count; i++) {
      Sym *fn = n->sym ? n->sym : n->cand[i];
      if (fn && !sym_is_cooperative_groups(fn) && fn_holds(fn, node_is_grid_sync)) {
        refuse(L, n->begin, "'%s' synchronises the whole grid (cooperative groups): coarsening changes the grid, "
               "and tfuse does not rewrite cooperative launches", fn->name);
        return true;
      }
    }
  }
  for (int i = 0; i < n->nkid; i++)
    if (check_grid_sync(L, n->kid[i]))
      return true;
  return false;
}

/* ---- the construct table ---- */

/* Walks n and the bodies of the functions it calls (each once, `seen`),
 * adding every row met to the kernel's census and refusing, at `site` (the
 * kernel's own node through which a helper was reached), a construct whose
 * row says REFUSE or that has no row.  Returns false at the first refusal. */
static bool constructs_rec(Legal *L, Node *n, Node *site, const char *helper, Vec *seen) {
  const Construct *c = construct_of(n);
  Node *at = site ? site : n;
  if (!c || c->rule == CONSTRUCT_REFUSE) {
    const char *name = c ? c->name : n->cursor_name ? n->cursor_name : "an unknown construct";
    const char *why = c ? c->model : "it has no row in tfuse's construct table";
    if (helper)
      refuse(L, at->begin, "'%s' in '%s', which the kernel calls, is not in tfuse's model of what it can coarsen: %s",
             name, helper, why);
    else
      refuse(L, at->begin, "'%s' is not in tfuse's model of what it can coarsen: %s", name, why);
    return false;
  }
  if (!vec_has_item(&L->k->constructs, (void *)c))
    vec_push(&L->k->constructs, (void *)c);
  if (n->kind == N_CALL && n->device_launch) {
    /* A launch in device code starts a grid of its own: not a call the
     * copies make, and not in the model. */
    const char *child = n->sym && n->sym->name ? n->sym->name : "a kernel";
    if (helper)
      refuse(L, at->begin, "'%s', which the kernel calls, launches '%s' from device code (dynamic parallelism), "
             "which tfuse does not coarsen", helper, child);
    else
      refuse(L, at->begin, "launches '%s' from device code (dynamic parallelism), which tfuse does not coarsen",
             child);
    return false;
  }
  if (n->kind == N_CALL) {
    int count = n->sym ? 1 : n->ncand;
    for (int i = 0; i < count; i++) {
      Sym *fn = n->sym ? n->sym : n->cand[i];
      if (!fn || fn_class(fn) != FN_BODY || !fn->body || vec_has_item(seen, fn))
        continue;
      vec_push(seen, fn);
      if (!constructs_rec(L, fn->body, site ? site : n, helper ? helper : fn->name, seen))
        return false;
    }
  }
  for (int i = 0; i < n->nkid; i++)
    if (!constructs_rec(L, n->kid[i], site, helper, seen))
      return false;
  return true;
}

/* Every construct the kernel reaches has a row of the table whose rule is
 * not REFUSE (passes/constructs.def); the rows met are the kernel's census
 * (-report-json). */
void check_constructs(Legal *L) {
  Vec seen = {0};
  vec_push(&seen, L->k->fn->sym);
  L->k->constructs.len = 0;
  constructs_rec(L, L->k->fn->sym->body, NULL, NULL, &seen);
  vec_free(&seen);
}

/* Whether name is a function of the project's files (a helper whose call
 * the walk refuses with its own reason). */
bool names_function(const Unit *u, const char *name) {
  for (int i = 0; i < u->functions.len; i++) {
    const Node *fn = u->functions.items[i];
    if (fn->sym && fn->sym->name && !strcmp(fn->sym->name, name))
      return true;
  }
  return false;
}

/* ---- threads that communicate through shared memory without a barrier ----
 *
 * Legacy warp-synchronous code (the unrolled last warp of a reduction, a
 * scan through `vs[tid - d]`) lets one thread read what another wrote with
 * no barrier between, relying on the warp's lanes running in step.  Thread
 * mode writes each statement once per copy, so a copy may read an element
 * another copy has already updated (consecutive mapping), or a logical warp
 * may span several copies (fewer than 32 threads per copy).  Such code is
 * warp-level: thread mode needs whole warps (warps_kept) or refuses.
 *
 * Found structurally, whatever the `volatile` keyword says: walking the
 * kernel's body in order (loops twice, for what one iteration writes and
 * the next reads; both branches of an `if` in turn), an access to shared
 * memory (an array of it, or a local pointer into it) that reads what an
 * earlier access of the same barrier interval (no __syncthreads(),
 * __syncwarp() or helper holding a barrier between) wrote, at an index
 * that differs between the copies and is written differently from the
 * write's (or through another name that may alias: a pointer into the
 * array).  A read of an element the thread itself wrote in the interval
 * (the same name and index, as written) reads back its own value in a
 * program free of races, whatever else was written.  A read at an index
 * the same for every copy is left alone: a copy then reads an element of
 * its own logical thread's row or one every copy reads alike, and the
 * statements around it are written copy after copy in the original's order
 * (Volkov's Gauss-Jordan, `A[y][x] /= A[i][i]` along y, stays accepted).
 * Not found: a read before the write in one statement (`vs[tid] +=
 * vs[tid + 1]` alone: the tree reduction's `sdata[tid] += sdata[tid + s]`
 * under its barrier has the same form), and accesses inside helpers (those
 * taking a pointer to volatile are refused by check_volatile_shared_arg). */

typedef struct {
  Sym *mem;       /* the shared array, or the local pointer into shared memory */
  Node *acc;      /* the outermost subscript */
  bool tdep;      /* an index differs between the copies */
} ShAccess;

typedef struct {
  const Source *src;
  Vec pending;    /* ShAccess*: writes since the last barrier */
  ShAccess *write, *read; /* the first communication found */
} CommWalk;

/* The access to shared memory that the outermost subscript n makes, or
 * false when it names no shared memory. */
static bool shared_access(Node *n, ShAccess *a) {
  if (n->kind != N_SUBSCRIPT)
    return false;
  Node *b = n;
  bool tdep = false;
  while (b && b->kind == N_SUBSCRIPT) {
    Node *ix = b->nkid > 1 ? b->kid[1] : NULL;
    tdep |= ix && (ix->varying || mentions_threadidx(ix));
    b = node_strip(b->kid[0]);
  }
  if (!b || b->kind != N_DECL_REF || !b->sym)
    return false;
  Sym *s = b->sym;
  if (s->kind != SYM_SHARED && !(s->kind == SYM_LOCAL && s->is_pointer && sym_views_shared(s)))
    return false;
  *a = (ShAccess){.mem = s, .acc = n, .tdep = tdep};
  return true;
}

/* Whether names a and b may reach the same shared memory. */
static bool shared_may_alias(const Sym *a, const Sym *b) {
  if (a == b)
    return true;
  if (a->kind == SYM_LOCAL && b->kind == SYM_LOCAL)
    return true; /* two views: conservatively the same memory */
  return sym_may_point_into(a, b) || sym_may_point_into(b, a);
}

/* Whether reading r may see what w, another thread's, wrote. */
static bool reads_other_thread(const ShAccess *wr, const ShAccess *r) {
  return r->tdep && shared_may_alias(wr->mem, r->mem);
}

/* A read through the subscript n: communication if a pending write may be
 * another thread's element, unless this thread wrote the element it names
 * (a pending write of the same name and index, as written): a program free
 * of races then reads back its own value. */
static void comm_read(CommWalk *w, Node *n) {
  ShAccess a;
  if (w->read || !shared_access(n, &a))
    return;
  for (int i = 0; i < w->pending.len; i++) {
    const ShAccess *p = w->pending.items[i];
    if (p->mem == a.mem && node_same_text(w->src, p->acc, a.acc))
      return;
  }
  for (int i = 0; i < w->pending.len; i++)
    if (reads_other_thread(w->pending.items[i], &a)) {
      w->write = w->pending.items[i];
      w->read = arena_alloc(sizeof *w->read);
      *w->read = a;
      return;
    }
}

/* A write through the subscript n: pending until the next barrier. */
static void comm_write(CommWalk *w, Node *n) {
  ShAccess a;
  if (!shared_access(n, &a))
    return;
  ShAccess *p = arena_alloc(sizeof *p);
  *p = a;
  vec_push(&w->pending, p);
}

static void comm_walk(CommWalk *w, Node *n);

/* The indices of the subscripts of lv (evaluated before the store). */
static void comm_indices(CommWalk *w, Node *lv) {
  Node *b = node_strip(lv);
  while (b && b->kind == N_SUBSCRIPT) {
    for (int i = 1; i < b->nkid; i++)
      comm_walk(w, b->kid[i]);
    b = node_strip(b->kid[0]);
  }
  if (b && b != node_strip(lv)) /* the base (`p[i]` of `get()[i]`), not a plain store's whole target */
    comm_walk(w, b);
  else if (b && b->kind != N_DECL_REF)
    comm_walk(w, b); /* `*p = v`, `s.f = v`: what it reads to find the target */
}

/* Walks n in evaluation order, loops twice, clearing the pending writes at each barrier. */
static void comm_walk(CommWalk *w, Node *n) {
  if (!n || w->read || n->kind == N_LAMBDA)
    return;
  if (n->kind == N_CALL && (node_is_barrier(n) || (n->sym && fn_holds_barrier(n->sym)) ||
                            (n->sym && n->sym->name && !strcmp(n->sym->name, "__syncwarp")))) {
    for (int i = 0; i < n->nkid; i++)
      comm_walk(w, n->kid[i]);
    w->pending.len = 0;
    return;
  }
  if ((n->kind == N_ASSIGN && n->nkid == 2) || (node_is_incdec(n) && n->nkid >= 1)) {
    Node *lv = n->kid[0];
    if (n->kind == N_ASSIGN)
      comm_walk(w, n->kid[1]);
    comm_indices(w, lv);
    Node *s = node_strip(lv);
    if (n->kind != N_ASSIGN || n->op != OP_ASSIGN)
      comm_read(w, s);
    comm_write(w, s);
    return;
  }
  if (n->kind == N_SUBSCRIPT) {
    comm_indices(w, n);
    comm_read(w, n);
    return;
  }
  int passes = n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO ? 2 : 1;
  for (int p = 0; p < passes; p++)
    for (int i = 0; i < n->nkid; i++)
      comm_walk(w, n->kid[i]);
}

/* Thread mode: shared memory one thread writes and another reads with no
 * barrier between is warp-level code: accepted with whole warps only. */
void check_shared_communication(Legal *L) {
  if (L->k->p.mode != MODE_THREAD || L->warp_shared_refused)
    return;
  CommWalk w = {.src = L->u->src};
  comm_walk(&w, L->k->fn->sym->body);
  if (w.read && !warps_kept(L)) {
    refuse(L, w.read->acc->begin, "'%s' is read here where another thread may have written it (%s) with no barrier "
           "between: threads that communicate through shared memory without __syncthreads() are warp-synchronous "
           "code, which thread mode would split" WARPS_KEPT_ONLY, w.read->mem->name, line_of(L->u, w.write->acc->begin));
  }
  vec_free(&w.pending);
}
