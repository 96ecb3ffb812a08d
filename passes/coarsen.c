/* coarsen: one kernel's analyses and rewrite, in order: varying and
 * uniform (uniform.c), the refusals (legality.c), promoted registers
 * (promote.c), the coarsened text (fuse.c).  The driver calls it for each
 * kernel of a fixed factor, variants.c for each -factor auto candidate;
 * `-dump-after uniform` stops after the first step and prints the tree. */
#include "passes.h"

#include <stdio.h>
#include <string.h>

/* Runs the analyses and rewrites of one kernel; false if it is refused. */
bool coarsen_kernel(Unit *u, Kernel *k, const Options *opt, EditList *el) {
  uniform_analyze(u, k);
  if (opt->dump_after && !strcmp(opt->dump_after, "uniform")) {
    Buf b = {0};
    node_dump(u, k->fn, 0, &b);
    fputs(b.data, stdout);
    buf_free(&b);
    return true;
  }
  if (!legality_check(u, k))
    return false;
  promote_analyze(u, k, opt);
  return fuse_kernel(u, k, opt, el);
}
