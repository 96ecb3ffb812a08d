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
  return fuse_kernel(u, k, el);
}

int tfuse_main(int argc, char **argv) {
  Options opt = {0};
  Project proj = {0};
  Unit unit = {0};
  Vec kernels = {0};
  EditList edits = {0};
  int rc = 1;
  /* Locations and edits are in the project's text, which parse fills in. */
  diag_init(&proj.text);
  edit_init(&proj.text);

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
  if (verify_output(&unit, &verified, &proj, &outputs, &opt) && project_write(&proj, &outputs, &opt))
    rc = 0;

out:
  if (error_count() && rc == 0)
    rc = 1;
  parse_dispose(&unit);
  vec_free(&kernels);
  arena_free_all();
  return rc;
}

#ifndef TFUSE_NO_MAIN /* the fuzzer has its own main */
int main(int argc, char **argv) { return tfuse_main(argc, argv); }
#endif
