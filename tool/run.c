/* run: one project's rewrite, the passes in order.  Parse, choose the
 * kernels (pragmas, -kernel, -all-kernels), expand the macros that hide
 * names to rewrite and parse again, coarsen each kernel (passes/coarsen.c;
 * -factor auto: its variants), rewrite the launches, put the prelude at the
 * top of each changed file, render and verify the outputs.  Reads top to
 * bottom; each step is one pass in passes/ (see passes.h).  A -factor auto
 * run whose variants turn out over the shared-memory limit runs once more
 * without them (coarsen_project_all). */
#include "tfuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernels to coarsen (annotate.c), and in a group run the -kernel
 * names this group defines, for the schedule's records. */
static void annotate_and_match(Unit *u, const Options *opt, Vec *kernels) {
  Vec matched = {0};
  annotate_kernels(u, opt, kernels, &matched);
  for (int i = 0; i < matched.len; i++)
    record_matched(matched.items[i]);
  vec_free(&matched);
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

/* The kernel loop's verdict on one kernel that stays unchanged: a warning
 * under -skip-unsafe (and its record), else the errors already printed. */
static void leave_unchanged(Kernel *k, unsigned off, const char *msg) {
  const char *why = msg ? msg : "it cannot be coarsened";
  warning_at(off ? off : k->fn->loc, "kernel '%s' left unchanged: %s", k->sym->name, why);
  record_kernel(k, "unchanged", why);
}

/* One kernel's coarsening, with its own edits: a trial under -skip-unsafe,
 * whose errors become the warning that leaves the kernel unchanged. */
static bool coarsen_one(Unit *u, Kernel *k, const Options *opt, EditList *trial) {
  if (opt->skip_unsafe)
    diag_begin_trial();
  bool ok = k->p.factor == FACTOR_AUTO ? variants_emit(u, k, opt, trial) && launch_rewrite_auto(u, k, trial)
                                       : coarsen_kernel(u, k, opt, trial);
  if (opt->skip_unsafe) {
    char *msg;
    unsigned off;
    if (diag_end_trial(&msg, &off) > 0 || !ok) {
      leave_unchanged(k, off, msg);
      return false;
    }
  }
  return ok;
}

/* -skip-unsafe: the kernels whose launches (or other uses) tfuse cannot
 * rewrite are found one kernel at a time, each launch_rewrite a trial, and
 * left unchanged; a kernel and all its launches change together or not at
 * all.  Returns how many were dropped from `done` (and their edits). */
static int drop_unlaunchable(Unit *u, Project *proj, Vec *done, Vec *done_edits, const Options *opt) {
  int dropped = 0;
  for (int i = 0; i < done->len;) {
    Kernel *k = done->items[i];
    Vec one = {0};
    vec_push(&one, k);
    EditList scratch = {0};
    diag_begin_trial();
    char *refusal = NULL;
    bool ok = launch_rewrite(u, &one, opt, &scratch) && project_check_others(proj, &one, opt, &refusal);
    char *msg;
    unsigned off;
    int n = diag_end_trial(&msg, &off);
    k->address_uses.len = 0; /* launch_rewrite records them again */
    vec_free(&scratch.edits);
    if (ok && n == 0) {
      i++;
      continue;
    }
    leave_unchanged(k, off, msg ? msg : refusal);
    for (int j = i; j + 1 < done->len; j++) {
      done->items[j] = done->items[j + 1];
      done_edits->items[j] = done_edits->items[j + 1];
    }
    done->len--;
    done_edits->len--;
    dropped++;
  }
  return dropped;
}

/* One project's rewrite: parse, choose kernels, analyse, rewrite, render,
 * verify; the changed files' texts in `outputs` (Output*), written by the
 * caller.  `drops_in`: candidates an earlier run found over the limit
 * (then the run is quiet but for errors: the earlier one printed the
 * rest); `drops_out`: set when this run needs another without them. */
static int coarsen_project(Project *proj, Options *opt, const char *drops_in, char **drops_out, Vec *outputs) {
  Unit unit = {0};
  Vec kernels = {0};
  EditList edits = {0};
  int rc = 1;
  /* Locations and edits are in the project's text, which parse fills in. */
  diag_init(&proj->text);
  edit_init(&proj->text);
  vec_free(&proj->texts);
  if (drops_in) {
    diag_set_quiet(true);
    opt->auto_drops = drops_parse(drops_in);
  }

  project_read_flags(proj, opt);
  if (!parse_project(&unit, proj, opt)) {
    record_parse_failure(proj);
    goto out;
  }
  if (opt->dump_after && !strcmp(opt->dump_after, "parse")) {
    Buf b = {0};
    for (int i = 0; i < unit.functions.len; i++)
      node_dump(&unit, unit.functions.items[i], 0, &b);
    fputs(b.data ? b.data : "", stdout);
    buf_free(&b);
    rc = 0;
    goto out;
  }

  annotate_and_match(&unit, opt, &kernels);
  if (error_count())
    goto out;
  /* Macro uses in the kernels that hide names to rewrite: expanded in the
   * text of their files, and the project is parsed again with those texts
   * (passes/macros.c). */
  if (macros_expand_kernels(&unit, &kernels, &proj->texts)) {
    parse_dispose(&unit);
    memset(&unit, 0, sizeof unit);
    kernels.len = 0;
    if (!parse_project(&unit, proj, opt)) {
      record_parse_failure(proj);
      goto out;
    }
    annotate_and_match(&unit, opt, &kernels);
    if (error_count())
      goto out;
  }
  record_parsed(proj, &unit);
  if (kernels.len == 0 && !opt->group_run && !opt->all_kernels)
    warning_plain("no kernel in %s%s%s is marked '#pragma tfuse coarsen' or named with -kernel; "
                  "the output is the input unchanged", proj->inputs.len == 1 ? "'" : "",
                  proj->text.path, proj->inputs.len == 1 ? "'" : "");

  Vec done_kernels = {0}; /* fixed factors, launches still to rewrite */
  Vec done_edits = {0};   /* EditList*: each one's own edits */
  Vec verified = {0};     /* the kernels coarsened: fixed factors and -factor auto */
  int tuned = 0;          /* -factor auto kernels */
  for (int i = 0; i < kernels.len; i++) {
    Kernel *k = kernels.items[i];
    if (k->p.factor == 1) {
      record_kernel(k, "unchanged", "factor 1");
      continue;
    }
    if (k->p.factor == FACTOR_AUTO && opt->dump_after)
      continue;
    EditList *trial = arena_alloc(sizeof *trial);
    if (!coarsen_one(&unit, k, opt, trial))
      continue;
    if (k->p.factor == FACTOR_AUTO) {
      for (int j = 0; j < trial->edits.len; j++)
        vec_push(&edits.edits, trial->edits.items[j]);
      tuned++;
      vec_push(&verified, k);
      continue;
    }
    if (opt->check)
      launch_keep_original(&unit, k, trial,
                           arena_printf("tfuse -check: the original '%s', run first and compared with it when "
                                        "TFUSE_CHECK=1", k->sym->name));
    vec_push(&done_kernels, k);
    vec_push(&done_edits, trial);
  }
  if (opt->dump_after) {
    rc = error_count() ? 1 : 0;
    goto out;
  }
  if (error_count())
    goto out;
  /* Every launch in every file of the project; and in the database's
   * other files, launches tfuse cannot rewrite. */
  if (opt->skip_unsafe)
    drop_unlaunchable(&unit, proj, &done_kernels, &done_edits, opt);
  for (int i = 0; i < done_kernels.len; i++) {
    EditList *el = done_edits.items[i];
    for (int j = 0; j < el->edits.len; j++)
      vec_push(&edits.edits, el->edits.items[j]);
    vec_push(&verified, done_kernels.items[i]);
  }
  if (!launch_rewrite(&unit, &done_kernels, opt, &edits))
    goto out;
  if (!project_check_others(proj, &done_kernels, opt, NULL))
    goto out;
  /* Each changed file starts with the prelude its rewrites use. */
  bool check_header = opt->check || tuned > 0; /* the tuning runtime uses the check header's types */
  for (int i = 0; i < proj->files.len; i++) {
    Source *f = proj->files.items[i];
    if ((done_kernels.len > 0 || tuned > 0) && edit_touches(&edits, f))
      edit_insert(&edits, f->base,
                  arena_printf("/* Coarsened by tfuse %s from %s; edit the original, not this file. */\n%s\n%s%s%s%s",
                               TFUSE_VERSION, f->path, tfuse_prelude_text, check_header ? tfuse_check_header_text : "",
                               check_header ? "\n" : "", tuned ? tfuse_tune_header_text : "", tuned ? "\n" : ""));
  }
  /* The changed files' texts, parsed once more where a kernel left a
   * compile-time probe (passes/verify.c). */
  if (!project_render(proj, &edits, opt, outputs))
    goto out;
  Vec drops = {0};
  if (verify_output(&unit, &verified, proj, outputs, opt, drops_in ? NULL : &drops)) {
    for (int i = 0; i < verified.len; i++)
      record_kernel(verified.items[i], "coarsened", NULL);
    rc = 0;
  } else if (drops.len && !error_count()) {
    for (int i = 0; i < drops.len && opt->report; i++) {
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
  if (rc == 1)
    record_failure(&kernels);
  parse_dispose(&unit);
  vec_free(&kernels);
  diag_set_quiet(false);
  return rc;
}

/* A -factor auto candidate whose template shared arrays turn out over the
 * static limit is known only once the output is parsed (verify.c): then
 * the project is rewritten once more without it.  The second time needs no
 * third: it emits a subset of the first's candidates. */
int coarsen_project_all(Project *proj, Options *opt, Vec *outputs) {
  char *drops = NULL;
  record_begin(proj);
  int rc = coarsen_project(proj, opt, NULL, &drops, outputs);
  if (rc == RUN_AGAIN) {
    outputs->len = 0;
    record_begin(proj);
    rc = coarsen_project(proj, opt, drops, NULL, outputs);
    if (rc == RUN_AGAIN)
      rc = 1;
  }
  free(drops);
  return rc;
}
