/* promote: register promotion of shared-memory re-reads (DESIGN.md sec. 6).
 *
 * Contract: requires uniform_analyze; records in Kernel.promoted the shared
 * arrays whose every store is at the storing thread's own index, so each
 * copy may keep its elements in registers.  Not implemented yet: no array
 * is promoted, and -report says so. */
#include "tfuse.h"

void promote_analyze(Unit *u, Kernel *k, const Options *opt) {
  (void)u;
  if (opt->report && opt->promote)
    remark_at(k->fn->loc, "register promotion is not implemented yet; '%s' keeps its shared-memory reads",
              k->sym->name);
}
