/* verify: the emitted texts, parsed once more where fuse.c left a
 * compile-time probe in them.
 *
 * Contract: called by the driver with the outputs (every changed file's
 * new text) before they are written, only when some coarsened kernel
 * carries a probe (today the static shared size of template kernels,
 * Kernel.shared_probe).  Every input of the project is parsed again with
 * the outputs in place of their files (a kernel of a header is
 * instantiated by the inputs that launch it).  Every error of that parse
 * becomes a refusal: a failed probe is located at its
 * kernel with the instantiation that fails (clang's note names it), any
 * other error is an internal error quoting clang.  A -factor auto candidate
 * whose probe fails is, when `drops` is given, recorded there instead (the
 * driver emits again without it).  Records no edits; true when the output
 * may be written. */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* "in instantiation of function template specialization 'k<32>' requested
 * here" -> "k<32>", or NULL. */
static const char *instantiation_of(const char *notes) {
  const char *key = "function template specialization '";
  const char *p = strstr(notes, key);
  if (!p)
    return NULL;
  p += strlen(key);
  const char *q = strchr(p, '\'');
  return q ? arena_strndup(p, (size_t)(q - p)) : NULL;
}

bool verify_output(Unit *u, const Vec *kernels, const Project *p, const Vec *outputs, const Options *opt,
                   Vec *drops) {
  bool probed = false;
  for (int i = 0; i < kernels->len; i++)
    probed |= ((Kernel *)kernels->items[i])->shared_probe;
  if (!probed)
    return true;
  Vec texts = {0}; /* the outputs, named by real path, as the parse takes them */
  for (int i = 0; i < outputs->len; i++) {
    const Output *o = outputs->items[i];
    const char *real = path_real(o->file->path);
    Source *t = arena_alloc(sizeof *t);
    t->path = real ? real : o->file->path;
    t->text = o->text;
    t->len = o->len;
    vec_push(&texts, t);
  }
  Vec errors = {0};
  bool parsed = parse_project_errors(p, &texts, opt, &errors);
  vec_free(&texts);
  if (!parsed) {
    error_plain("internal error: libclang could not parse the coarsened output of '%s'", u->src->path);
    return false;
  }
  Vec seen = {0}; /* "kernel by K": one error each, whatever the instantiations failing */
  for (int i = 0; i < errors.len; i++) {
    const char *msg = errors.items[i];
    const char *mark = strstr(msg, "tfuse-shared-limit: '");
    Kernel *hit = NULL;
    for (int j = 0; mark && j < kernels->len && !hit; j++) {
      Kernel *k = kernels->items[j];
      const char *name = arena_printf("tfuse-shared-limit: '%s' ", k->sym->name);
      if (k->shared_probe && !strncmp(mark, name, strlen(name)))
        hit = k;
    }
    int by = 0;
    const char *c = mark ? strstr(mark, " coarsened by ") : NULL;
    char *ftext = NULL; /* "8", or "4,2" for a candidate along two dimensions */
    if (c) {
      const char *b = c + strlen(" coarsened by "), *e = strstr(b, " declares");
      by = atoi(b);
      ftext = e ? arena_strndup(b, (size_t)(e - b)) : NULL;
    }
    if (!ftext)
      ftext = arena_printf("%d", by);
    if (hit) {
      const char *id = arena_printf("%s by %s", hit->sym->name, ftext);
      bool dup = false;
      for (int j = 0; j < seen.len && !dup; j++)
        dup = !strcmp(seen.items[j], id);
      if (dup)
        continue;
      vec_push(&seen, (void *)id);
    }
    if (hit && hit->p.factor == FACTOR_AUTO && drops && by > 0) {
      /* A candidate, not the user's choice: the driver emits once more
       * without it (variants.c leaves it out, saying so with -report). */
      const char *inst = instantiation_of(msg);
      AutoDrop *d = arena_alloc(sizeof *d);
      d->kernel = arena_strdup(kernel_identity(hit));
      d->factor = ftext;
      d->instance = inst ? arena_strdup(inst) : NULL;
      vec_push(drops, d);
    } else if (hit && hit->p.factor == FACTOR_AUTO) {
      const char *inst = instantiation_of(msg);
      error_at(hit->fn->loc,
               "-factor auto: candidate factor %d of '%s'%s%s%s would declare more than 48 KB of static __shared__ "
               "memory (its replicated arrays' sizes depend on template arguments); leave it out with -candidates "
               "(factors below %d)",
               by, hit->sym->name, inst ? " (instantiated as '" : "", inst ? inst : "", inst ? "')" : "", by);
    } else if (hit) {
      const char *inst = instantiation_of(msg);
      error_at(hit->fn->loc,
               "coarsened by %s, '%s'%s%s%s would declare more than 48 KB of static __shared__ memory (its "
               "replicated arrays' sizes depend on template arguments), over what a block may declare statically; "
               "use a smaller -factor",
               params_multi(&hit->p) ? params_factor_text(&hit->p) : arena_printf("%d", by ? by : hit->p.factor),
               hit->sym->name, inst ? " (instantiated as '" : "", inst ? inst : "", inst ? "')" : "");
    } else {
      const char *nl = strchr(msg, '\n');
      error_plain("internal error: the coarsened output of '%s' does not compile: %.*s", u->src->path,
                  nl ? (int)(nl - msg) : (int)strlen(msg), msg);
    }
  }
  bool ok = errors.len == 0 && (!drops || drops->len == 0);
  vec_free(&errors);
  vec_free(&seen);
  return ok;
}
