/* tfuse driver: options, the project's files, parse, choose kernels,
 * analyse, rewrite, emit.
 * Reads top to bottom; each step is one pass in passes/ (see tfuse.h).
 * tfuse_main is one whole run and leaves no state behind (all memory is in
 * the arena, diagnostics and edits start afresh), so the fuzzer
 * (test/fuzz/libfuzzer) can call it many times in one process. */
#include "tfuse.h"

#include <stdio.h>
#include <stdlib.h>
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

/* What run returns when verify.c found -factor auto candidates over the
 * static shared-memory limit: the driver runs again without them. */
enum { RUN_AGAIN = -1 };

/* The candidates to leave out, as text that outlives a run's arena:
 * lines "kernel\tfactor\tinstance". */
static char *drops_text(const Vec *drops) {
  Buf b = {0};
  for (int i = 0; i < drops->len; i++) {
    const AutoDrop *d = drops->items[i];
    buf_printf(&b, "%s\t%s\t%s\n", d->kernel, d->factor, d->instance ? d->instance : "");
  }
  return b.data; /* malloc'd (Buf) */
}

static Vec *drops_parse(const char *text) {
  Vec *v = arena_alloc(sizeof *v);
  for (const char *l = text; l && *l;) {
    const char *t1 = strchr(l, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL, *nl = t2 ? strchr(t2, '\n') : NULL;
    if (!nl)
      break;
    AutoDrop *d = arena_alloc(sizeof *d);
    d->kernel = arena_strndup(l, (size_t)(t1 - l));
    d->factor = arena_strndup(t1 + 1, (size_t)(t2 - t1 - 1));
    d->instance = nl > t2 + 1 ? arena_strndup(t2 + 1, (size_t)(nl - t2 - 1)) : NULL;
    vec_push(v, d);
    l = nl + 1;
  }
  return v;
}

/* One whole run.  `drops_in`: candidates an earlier run found over the
 * limit (then the run is quiet but for errors: the earlier one printed the
 * rest); `drops_out`: set when this run needs another without them. */
static int run(int argc, char **argv, const char *drops_in, char **drops_out) {
  Options opt = {0};
  Project proj = {0};
  Unit unit = {0};
  Vec kernels = {0};
  EditList edits = {0};
  int rc = 1;
  /* Locations and edits are in the project's text, which parse fills in. */
  diag_init(&proj.text);
  edit_init(&proj.text);
  if (drops_in) {
    diag_set_quiet(true);
    opt.auto_drops = drops_parse(drops_in);
  }

  bool done;
  int status = options_parse(&opt, argc, argv, &done);
  if (status || done) {
    rc = status;
    goto out;
  }
  if (!project_open(&proj, &opt))
    goto out;

  if (!parse_project(&unit, &proj, &opt))
    goto out;
  if (opt.dump_after && !strcmp(opt.dump_after, "parse")) {
    Buf b = {0};
    for (int i = 0; i < unit.functions.len; i++)
      node_dump(&unit, unit.functions.items[i], 0, &b);
    fputs(b.data ? b.data : "", stdout);
    buf_free(&b);
    rc = 0;
    goto out;
  }

  annotate_kernels(&unit, &opt, &kernels);
  if (error_count())
    goto out;
  /* Macro uses in the kernels that hide names to rewrite: expanded in the
   * text of their files, and the project is parsed again with those texts
   * (passes/macros.c). */
  if (macros_expand_kernels(&unit, &kernels, &proj.texts)) {
    parse_dispose(&unit);
    memset(&unit, 0, sizeof unit);
    kernels.len = 0;
    if (!parse_project(&unit, &proj, &opt))
      goto out;
    annotate_kernels(&unit, &opt, &kernels);
    if (error_count())
      goto out;
  }
  if (kernels.len == 0)
    warning_plain("no kernel in %s%s%s is marked '#pragma tfuse coarsen' or named with -kernel; "
                  "the output is the input unchanged", proj.inputs.len == 1 ? "'" : "",
                  proj.text.path, proj.inputs.len == 1 ? "'" : "");

  Vec done_kernels = {0};
  Vec verified = {0}; /* the kernels coarsened: fixed factors and -factor auto */
  int tuned = 0;      /* -factor auto kernels */
  for (int i = 0; i < kernels.len; i++) {
    Kernel *k = kernels.items[i];
    if (k->p.factor == 1)
      continue; /* factor 1: unchanged */
    if (k->p.factor == FACTOR_AUTO) {
      if (!opt.dump_after && variants_emit(&unit, k, &opt, &edits) && launch_rewrite_auto(&unit, k, &edits)) {
        tuned++;
        vec_push(&verified, k);
      }
      continue;
    }
    if (opt.skip_unsafe)
      diag_begin_trial();
    EditList trial = {0};
    bool ok = coarsen_kernel(&unit, k, &opt, &trial);
    if (opt.skip_unsafe) {
      char *msg;
      unsigned off;
      if (diag_end_trial(&msg, &off) > 0 || !ok) {
        warning_at(off ? off : k->fn->loc, "kernel '%s' left unchanged: %s", k->sym->name,
                   msg ? msg : "it cannot be coarsened");
        continue;
      }
    }
    if (!ok)
      continue;
    if (opt.check)
      launch_keep_original(&unit, k, &trial,
                           arena_printf("tfuse -check: the original '%s', run first and compared with it when "
                                        "TFUSE_CHECK=1", k->sym->name));
    for (int j = 0; j < trial.edits.len; j++)
      vec_push(&edits.edits, trial.edits.items[j]);
    vec_free(&trial.edits);
    vec_push(&done_kernels, k);
    vec_push(&verified, k);
  }
  if (opt.dump_after) {
    rc = error_count() ? 1 : 0;
    goto out;
  }
  if (error_count())
    goto out;
  /* Every launch in every file of the project; and in the database's
   * other files, launches tfuse cannot rewrite. */
  if (!launch_rewrite(&unit, &done_kernels, &opt, &edits))
    goto out;
  if (!project_check_others(&proj, &done_kernels, &opt))
    goto out;
  /* Each changed file starts with the prelude its rewrites use. */
  bool check_header = opt.check || tuned > 0; /* the tuning runtime uses the check header's types */
  for (int i = 0; i < proj.files.len; i++) {
    Source *f = proj.files.items[i];
    if ((done_kernels.len > 0 || tuned > 0) && edit_touches(&edits, f))
      edit_insert(&edits, f->base,
                  arena_printf("/* Coarsened by tfuse %s from %s; edit the original, not this file. */\n%s\n%s%s%s%s",
                               TFUSE_VERSION, f->path, tfuse_prelude_text, check_header ? tfuse_check_header_text : "",
                               check_header ? "\n" : "", tuned ? tfuse_tune_header_text : "", tuned ? "\n" : ""));
  }
  /* The changed files' texts, parsed once more where a kernel left a
   * compile-time probe (passes/verify.c), then written all or none. */
  Vec outputs = {0};
  if (!project_render(&proj, &edits, &opt, &outputs))
    goto out;
  Vec drops = {0};
  if (verify_output(&unit, &verified, &proj, &outputs, &opt, drops_in ? NULL : &drops) &&
      project_write(&proj, &outputs, &opt))
    rc = 0;
  else if (drops.len && !error_count()) {
    for (int i = 0; i < drops.len && opt.report; i++) {
      const AutoDrop *d = drops.items[i];
      for (int j = 0; j < verified.len; j++) {
        Kernel *k = verified.items[j];
        if (!strcmp(kernel_identity(k), d->kernel))
          remark_at(k->fn->loc, "-factor auto: candidates block.*:%s of '%s' left out: the replicated __shared__ "
                                "arrays would declare more than 48 KB%s%s%s", d->factor, k->sym->name,
                    d->instance ? " (instantiated as '" : "", d->instance ? d->instance : "", d->instance ? "')" : "");
      }
    }
    *drops_out = drops_text(&drops);
    rc = RUN_AGAIN;
  }

out:
  if (error_count() && rc == 0)
    rc = 1;
  parse_dispose(&unit);
  vec_free(&kernels);
  arena_free_all();
  diag_set_quiet(false);
  return rc;
}

/* A -factor auto candidate whose template shared arrays turn out over the
 * static limit is known only once the output is parsed (verify.c): then
 * the whole run is done once more without it.  The second run needs no
 * third: it emits a subset of the first's candidates. */
int tfuse_main(int argc, char **argv) {
  char *drops = NULL;
  int rc = run(argc, argv, NULL, &drops);
  if (rc == RUN_AGAIN) {
    rc = run(argc, argv, drops, NULL);
    if (rc == RUN_AGAIN)
      rc = 1;
  }
  free(drops);
  return rc;
}

#ifndef TFUSE_NO_MAIN /* the fuzzer has its own main */
int main(int argc, char **argv) { return tfuse_main(argc, argv); }
#endif
