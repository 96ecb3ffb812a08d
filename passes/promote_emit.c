/* promote_emit: the registers of the arrays promote.c promotes, as fuse.c
 * emits them.
 *
 * Contract: requires promote_analyze (Kernel.promoted, Node.promo) and a
 * Fuse set up by fuse_kernel; provides the register of each copy (or of
 * the thread) for a promoted array, named past the names the project
 * already uses (Promo.reg), and their declaration.  fuse.c rewrites the
 * accesses at the owner's index to them (collect_promoted).
 *
 *   A[ty][tx] += v;   ->   A[ty][tx] = A_reg_0 += v;   (copy 0, thread mode)
 */
#include "fuse.h"

#include <string.h>

/* The dimensions along which a promoted array's registers differ: the
 * array's own in block mode (one register per replica), all in thread mode
 * (each copy owns its element); none when one register serves the thread. */
unsigned promo_dims(Fuse *F, const Promo *pr) {
  if (!pr->per_copy)
    return 0;
  return F->k->p.mode == MODE_THREAD ? F->all : sym_dims(F, pr->arr);
}

const char *promo_reg(Fuse *F, Promo *pr, Copy c) {
  if (F->multi) {
    unsigned m = promo_dims(F, pr);
    int n = ngroups(F, m);
    if (!pr->reg) {
      pr->reg = arena_alloc(sizeof(char *) * (size_t)n);
      bool clash = false;
      for (int i = 0; i < n && !clash; i++)
        clash = unit_has_ident(F->u, arena_printf("%s_reg%s", pr->arr->name, copy_suffix(F, m, group_at(F, m, i))));
      for (int i = 0; i < n; i++)
        pr->reg[i] = arena_printf("%s%s%s", pr->arr->name, clash ? "__tfreg" : "_reg", copy_suffix(F, m, group_at(F, m, i)));
    }
    return pr->reg[group_index(F, m, c)];
  }
  int r = c.r[F->k->p.dim];
  if (!pr->reg) {
    int n = pr->per_copy ? F->K : 1;
    pr->reg = arena_alloc(sizeof(char *) * (size_t)n);
    bool clash = false;
    for (int i = 0; i < n && !clash; i++)
      clash = unit_has_ident(F->u, pr->per_copy ? arena_printf("%s_reg_%d", pr->arr->name, i)
                                                : arena_printf("%s_reg", pr->arr->name));
    for (int i = 0; i < n; i++)
      pr->reg[i] = pr->per_copy ? (clash ? arena_printf("%s__tfreg%d", pr->arr->name, i)
                                         : arena_printf("%s_reg_%d", pr->arr->name, i))
                                : (clash ? arena_printf("%s__tfreg", pr->arr->name) : arena_printf("%s_reg", pr->arr->name));
  }
  return pr->reg[pr->per_copy ? r : 0];
}

/* `float A_reg_0, A_reg_1;` for a promoted array, or NULL.  An element
 * type whose spelling is not a plain specifier (`int *`, `float (*)[4]`)
 * is named through the prelude's ::tfuse_rt::plain, so that each name
 * gets the whole type: `typename ::tfuse_rt::plain<int *>::type A_reg_0, A_reg_1;`. */
char *promo_decl(Fuse *F, Sym *arr) {
  for (int i = 0; i < F->k->promoted.len; i++) {
    Promo *pr = F->k->promoted.items[i];
    if (pr->arr != arr)
      continue;
    Buf b = {0};
    const char *et = pr->arr->elem_type;
    if (strpbrk(et, "*&([]"))
      buf_printf(&b, "typename ::tfuse_rt::plain<%s>::type ", et);
    else
      buf_printf(&b, "%s ", et);
    unsigned m = promo_dims(F, pr);
    for (int i = 0; i < ngroups(F, m); i++)
      buf_printf(&b, "%s%s", i ? ", " : "", promo_reg(F, pr, group_at(F, m, i)));
    buf_printf(&b, "; /* tfuse: %s of %s, kept in registers */", pr->per_copy ? "the copies' own elements" : "this thread's own element", pr->index_text);
    char *t = arena_strdup(b.data);
    buf_free(&b);
    return t;
  }
  return NULL;
}
