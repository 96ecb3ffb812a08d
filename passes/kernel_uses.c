/* kernel_uses: every use of a coarsened kernel's name that is not a launch.
 *
 * Contract: a use is a kernel argument of the runtime's functions
 * (kernel_apis.c), a function pointer's value (the original is kept, and a
 * launch through a pointer dispatches on it: pointer_dispatch), or an
 * error at the name; launches tfuse could not rewrite (in a macro's
 * definition, through a name it cannot see) are refused, and a block size
 * bounded only by launches gets its bound. */
#include "passes.h"
#include "launch_int.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* What check_other_uses works with. */
typedef struct {
  Unit *u;
  Vec *kernels;
  bool pointers; /* uses that store or compare function pointers are recorded */
  bool check;
  EditList *el;
  Vec calls; /* Node*: calls of kernel_apis rewritten (a macro that expands its argument twice: once) */
} Uses;

/* A dependent name (candidates n->cand) in a host template: whether every
 * instantiation names k, i.e. every candidate is k's template and k has no
 * explicit specialization the instantiation might pick instead. */
static bool only_kernel(const Unit *u, const Node *n, const Kernel *k) {
  for (int i = 0; i < n->ncand; i++)
    if (n->cand[i] != k->sym)
      return false;
  for (int i = 0; i < u->functions.len; i++)
    if (((Node *)u->functions.items[i])->sym->spec_of == k->sym)
      return false;
  return true;
}

/* Whether n names k: a reference to it, or in a host template a name
 * whose candidates include it (`k<T>`: clang resolves it per instantiation). */
static bool names_kernel(const Node *n, const Kernel *k) {
  if (n->kind == N_DECL_REF)
    return n->sym == k->sym;
  for (int i = 0; i < n->ncand && n->kind == N_OTHER; i++)
    if (n->cand[i] == k->sym)
      return true;
  return false;
}

/* The name of the function a use is an argument of (through parentheses,
 * casts and `&`), or NULL. */
static const char *argument_of(const Node *n) {
  const Node *p = n->parent;
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN || p->kind == N_CAST ||
               (p->kind == N_UNOP && p->op == OP_ADDR)))
    p = p->parent;
  if (!p || p->kind != N_CALL || p->is_launch || p->nkid == 0 || node_strip(p->kid[0]) == n)
    return NULL;
  return p->spelling ? p->spelling : p->sym ? p->sym->name : NULL;
}

/* One use of k's name, not the callee of a launch; false after a located error. */
static bool other_use(Uses *x, Node *n, Kernel *k) {
  Unit *u = x->u;
  unsigned at = use_at(u, n, k);
  if (x->pointers && k->p.factor != FACTOR_AUTO && n->kind == N_DECL_REF && !n->in_macro && is_address_use(n) &&
      at == n->loc) {
    vec_push(&k->address_uses, n);
    return true;
  }
  if (n->kind == N_OTHER && !only_kernel(u, n, k)) {
    error_at(at, "'%s' may be named here, in a host template, where an instantiation may also name another function "
                 "(an overload, an explicit specialization); tfuse refuses to coarsen the kernel", k->sym->name);
    return false;
  }
  ApiCall c = api_call_of(u, n, k);
  const char *callee;
  if (c.api && c.e) {
    for (int i = 0; i < x->calls.len; i++) {
      Node *d = x->calls.items[i];
      if (d->begin == c.b)
        return true;
    }
    Node *mark = arena_alloc(sizeof *mark);
    mark->begin = c.b;
    vec_push(&x->calls, mark);
    return rewrite_api_use(u, &c, k, at, x->check, x->el);
  }
  Node *p = n->parent;
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN))
    p = p->parent;
  Node *fn = enclosing_function(n);
  if (p && p->kind == N_CALL && p->device_launch && fn && fn->sym)
    error_at(at, "'%s' is launched here from device code ('%s': dynamic parallelism); tfuse rescales the launches "
                 "the host makes, so it leaves the kernel unchanged", k->sym->name, fn->sym->name);
  else if (c.api)
    error_at(at, "'%s' is passed to %s in a macro's body; tfuse cannot rewrite it there, so it refuses to coarsen "
                 "the kernel; expand the macro by hand", k->sym->name, c.api->name);
  else if ((callee = argument_of(n)))
    error_at(at, "'%s' is passed to %s, which tfuse does not model: it may launch or describe the kernel, which "
                 "runs coarsened; tfuse refuses to coarsen the kernel", k->sym->name, callee);
  else
    error_at(at, "'%s' is used here other than in a <<<...>>> launch%s; tfuse cannot rescale such a launch, so it "
                 "refuses to coarsen the kernel",
             k->sym->name, x->pointers ? " or as a function pointer's value" : "");
  return false;
}

/* Any use of a kernel's name other than as the callee of a launch would
 * escape the rescaling.  A kernel argument of the runtime's functions
 * (kernel_apis) is rewritten or refused there.  With `pointers`, a use
 * that stores or compares a function pointer (is_address_use) is recorded
 * in Kernel.address_uses instead: it will name the original kernel, kept
 * in the output, and launches through pointers dispatch on it
 * (pointer_dispatch).  Every error names the kernel, at its name. */
static bool check_other_uses(Uses *x, Node *n) {
  bool ok = true;
  if (n->kind == N_DECL_REF || n->ncand > 0)
    for (int j = 0; j < x->kernels->len; j++) {
      Kernel *k = x->kernels->items[j];
      if (names_kernel(n, k) && k->p.factor != 1) /* -factor auto (0) too: its variants are renamed */
        ok &= other_use(x, n, k);
    }
  /* The callee of a launch (kid 0) is the one use that is rewritten. */
  for (int i = n->is_launch ? 1 : 0; i < n->nkid; i++)
    ok &= check_other_uses(x, n->kid[i]);
  return ok;
}

/* Every function of the unit (check_other_uses). */
bool other_uses(Unit *u, Vec *kernels, bool pointers, bool check, EditList *el) {
  Uses x = {.u = u, .kernels = kernels, .pointers = pointers, .check = check, .el = el};
  bool ok = true;
  for (int i = 0; i < u->functions.len; i++)
    ok &= check_other_uses(&x, u->functions.items[i]);
  for (int i = 0; i < u->global_vars.len; i++)
    ok &= check_other_uses(&x, u->global_vars.items[i]);
  vec_free(&x.calls);
  return ok;
}

/* A kernel whose address a function pointer may hold, or that the
 * runtime's queries and setters name (kernel_apis): the pointer holds the
 * original, kept in the output as `k__tf_orig`, so a launch through it
 * that tfuse does not rewrite (in another file, inside an expression) runs
 * the original kernel on the original grid, as written; the queries
 * answer for it. */
void keep_original_for_uses(Unit *u, Kernel *k, EditList *el) {
  const char *name = k->sym->name;
  launch_keep_original(
      u, k, el,
      k->address_uses.len
          ? arena_printf("tfuse: the original '%s', which function pointers hold; a launch through one runs '%s' "
                         "coarsened", name, name)
      : k->original_uses
          ? arena_printf("tfuse: the original '%s', which the runtime's queries describe; its launches run '%s' "
                         "coarsened", name, name)
          : arena_printf("tfuse: the original '%s', which a launch runs where the coarsened kernel cannot serve its "
                         "shape", name));
  for (int i = 0; i < k->address_uses.len; i++) {
    Node *n = k->address_uses.items[i];
    edit_replace(el, n->loc, (unsigned)strlen(k->sym->name), original_name(k));
  }
}

/* A launch through a function pointer that may hold coarsened kernels
 * (those of its pointee type with address uses) becomes a dispatch on the
 * pointer's value, which runs the coarsened kernel, with its launch
 * rescaled, where the pointer holds that kernel's original:
 *   { auto __tf_fp = (p);
 *     if (__tf_fp == &k__tf_orig) { const dim3 __tf_grid = (g); k<<<coarsen_grid(..), b>>>(grid_extent(..), x); }
 *     else __tf_fp<<<g, b>>>(x); }
 * One branch runs, so the configuration and arguments are evaluated once. */
bool pointer_dispatch(Unit *u, Node *call, Vec *targets, EditList *el) {
  const Source *src = u->src;
  const char *t = src->text;
  Kernel *k0 = targets->items[0];
  if (call->in_macro || call->end <= call->begin || !in_statement_position(call)) {
    warning_at(call->begin, "this launch through a function pointer that may hold '%s' is not a statement of its "
                            "own; it runs the original kernel", k0->sym->name);
    return true;
  }
  unsigned cb, ce;
  Span parts[4];
  int np = launch_parts(u, call, k0, &cb, &ce, parts);
  unsigned end = np ? launch_statement_end(u, call, k0) : 0;
  if (!end)
    return false;
  unsigned lp = args_open(src, call, ce);
  char *site = launch_site(src, call->begin);
  const char *ind = source_indent(src, call->begin);

  Buf b = {0};
  buf_printf(&b, "{ auto __tf_fp = (%s);", span_text(src, (Span){call->begin, cb - 3}));
  for (int i = 0; i < targets->len; i++) {
    Kernel *k = targets->items[i];
    buf_printf(&b, "\n%s  %sif (__tf_fp == &%s) { ", ind, i ? "else " : "", original_name(k));
    char *cond = k->p.mode == MODE_THREAD ? thread_serve_condition(call, k, "__tf_block") : NULL;
    if (k->p.mode == MODE_BLOCK) {
      add_block_launch(u, call, k, parts, np, cb, ce, "", k->sym->name, "__tf_fp", &b);
    } else if (cond) {
      add_thread_dispatch(u, call, k, parts, np, ce, cond, k->sym->name, "__tf_fp", "", &b);
    } else {
      buf_printf(&b, "%s<<<%s, %s", k->sym->name, span_text(src, parts[0]),
                 coarsened_block(k, span_text(src, parts[1]), site));
      for (int p = 2; p < np; p++)
        buf_printf(&b, ", %s", span_text(src, parts[p]));
      buf_puts(&b, ">>>");
      buf_add(&b, t + lp, call->end - lp);
    }
    buf_puts(&b, cond ? "}" : "; }");
    k->indirect_launches++;
  }
  buf_printf(&b, "\n%s  else __tf_fp<<<", ind);
  buf_add(&b, t + cb, call->end - cb);
  buf_printf(&b, "; }");
  edit_replace(el, call->begin, end - call->begin, b.data);
  buf_free(&b);
  return true;
}

/* The coarsened kernels a launch through a pointer of this type may reach. */
void pointer_targets(const Node *call, Vec *kernels, Vec *out) {
  out->len = 0;
  if ((call->sym && call->sym->kind == SYM_FUNC) || call->ncand > 0 || !call->callee_fn_type)
    return;
  for (int j = 0; j < kernels->len; j++) {
    Kernel *k = kernels->items[j];
    if (k->address_uses.len > 0 && k->sym->fn_type && !strcmp(k->sym->fn_type, call->callee_fn_type))
      vec_push(out, k);
  }
}

/* The text's own word for it: every `NAME<<<` or `NAME<...><<<` of a
 * coarsened kernel in the file must be a launch that was rewritten.  One
 * that is not (in a host template whose arguments clang leaves dependent,
 * in a macro body) would run the coarsened kernel on the original grid,
 * which in thread mode compiles and runs K times too many threads.  In
 * thread mode a kernel with no launch in the file is refused for the same
 * reason; in block mode its signature changes, so a launch elsewhere no
 * longer compiles, and a warning says so. */
/* The offset of the #define directive that offset `off` lies in (continued
 * lines too), or ~0u if none. */
static unsigned define_start(const Source *src, unsigned off) {
  const char *t = src->text;
  unsigned b = off;
  for (;;) {
    while (b > 0 && t[b - 1] != '\n')
      b--;
    if (b >= 2 && t[b - 2] == '\\')
      b--; /* the previous line continues into this one */
    else
      break;
  }
  while (b < src->len && (t[b] == ' ' || t[b] == '\t'))
    b++;
  if (b >= src->len || t[b] != '#')
    return ~0u;
  unsigned hash = b++;
  while (b < src->len && (t[b] == ' ' || t[b] == '\t'))
    b++;
  return !strncmp(t + b, "define", 6) ? hash : ~0u;
}

bool check_unrewritten(Unit *u, Kernel *k, Vec *done, bool external) {
  if (k->p.factor <= 1)
    return true;
  const char *t = u->src->text, *name = k->sym->name;
  size_t len = u->src->len, nl = strlen(name);
  bool ok = true;
  int launches = 0;
  for (size_t i = 0; i < len;) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    bool word = (i == 0 || !ident_char(t[i - 1])) && i + nl <= len && !strncmp(t + i, name, nl) &&
                !(i + nl < len && ident_char(t[i + nl]));
    if (!word) {
      i++;
      continue;
    }
    if (launch_chevrons(u->src, (unsigned)(i + nl))) {
      bool rewritten = false;
      for (int d = 0; d < done->len && !rewritten; d++) {
        Node *c = done->items[d];
        rewritten = c->begin <= i && i < c->end;
      }
      /* A launch of another function of the same name (the template of an
       * explicit specialization, an overload) is not this kernel's. */
      bool other = false;
      for (int d = 0; d < u->launches.len && !rewritten && !other; d++) {
        Node *c = u->launches.items[d];
        other = c->begin <= i && i < c->end && c->sym && c->sym != k->sym && !c->in_macro;
      }
      if (rewritten) {
        launches++;
      } else if (other) {
        /* not ours */
      } else if (define_start(u->src, (unsigned)i) != ~0u &&
                 !macro_uses_may_launch(u, k, define_start(u->src, (unsigned)i), (unsigned)i)) {
        /* a #define whose uses were all expanded (macros.c) */
      } else {
        error_at((unsigned)i, "launch of coarsened kernel '%s' that tfuse cannot rewrite (in a template it "
                              "cannot resolve, or a macro); it would run on the original grid", name);
        ok = false;
      }
    }
    i += nl;
  }
  if (ok && launches + k->indirect_launches == 0) {
    if (k->p.mode == MODE_THREAD && !external) {
      error_at(k->fn->loc, "no launch of '%s' in this file: in thread mode a launch elsewhere would run K "
                           "times too many threads; coarsen the file that launches it", name);
      ok = false;
    } else if (k->p.mode == MODE_THREAD) {
      warning_at(k->fn->loc, "no launch of '%s' in this file: each launch elsewhere must divide the block's "
                             "%s extent by %s", name, params_dim_text(&k->p), params_factor_text(&k->p));
    } else if (!external) {
      warning_at(k->fn->loc, "no launch of '%s' in this file: a launch elsewhere must pass the original grid "
                             "extent first (its signature now begins with 'unsigned int __tf_grid_%s')",
                 name, dim_name(k->p.dim));
    }
  }
  return ok;
}

/* Block mode multiplies a thread's registers by about K while the block
 * keeps its size, so a kernel launched with large blocks may no longer fit
 * the register file ("too many resources requested for launch").  Where
 * every launch in the file has a block size clang evaluates, the kernel
 * gets `__launch_bounds__(largest)` (unless it has its own), so ptxas
 * budgets registers for it (spilling rather than failing).  Blocks of 256
 * threads or fewer leave ptxas its full budget, so nothing is added. */
void bound_block_threads(Unit *u, Kernel *k, Vec *done, EditList *el) {
  if (k->p.mode != MODE_BLOCK || k->p.factor <= 1 || k->indirect_launches > 0)
    return; /* a launch through a pointer or cudaLaunchKernel: its block is not read */
  if (has_launch_bounds(u->src, k))
    return;
  long most = 0;
  for (int i = 0; i < done->len; i++) {
    Node *call = done->items[i];
    if (call->sym != k->sym)
      continue;
    Node *cfg = launch_config(call);
    if (!cfg || cfg->block_threads <= 0)
      return;
    if (cfg->block_var && !only_read_by_launches(enclosing_function(call), cfg->block_var))
      return; /* its initial value may not be the one launched with */
    if (cfg->block_threads > most)
      most = cfg->block_threads;
  }
  if (most > 256 && most <= 1024)
    edit_insert(el, k->fn->loc, arena_printf("__launch_bounds__(%ld) ", most));
}

/* Whether `call` launches kernel k: its callee is k, or, in a host
 * template, a dependent name (`k<T><<<...>>>`) whose every candidate is k's
 * template and k has no explicit specialization the instantiation might
 * pick instead. */
bool launches_kernel(Unit *u, const Node *call, const Kernel *k) {
  if (call->sym)
    return call->sym == k->sym;
  return call->ncand > 0 && only_kernel(u, call, k);
}

/* A kernel whose every launch in the file has a constant shape that the
 * coarsened kernel can never serve (thread mode: `k<<<1, 1>>>` at K = 2)
 * would only ever run its original: it is left unchanged, with the reason.
 * Other launches (through pointers, the runtime's launch functions) count
 * as served. */
bool some_launch_served(Unit *u, Kernel *k) {
  if (k->p.mode != MODE_THREAD || k->p.factor <= 1 || k->indirect_launches > 0)
    return true;
  Node *first = NULL;
  char *why = NULL;
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    if (!launches_kernel(u, call, k))
      continue;
    char *w = never_served(call, k);
    if (!w)
      return true;
    if (!first) {
      first = call;
      why = w;
    }
  }
  if (first)
    error_at(first->begin, "every launch of '%s' in this file has a block the kernel coarsened by %d could never "
                           "serve (here %s), so it would only ever run the original",
             k->sym->name, k->p.factor, why);
  return !first;
}
