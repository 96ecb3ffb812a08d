/* tfuse driver: options, the project's files, then one project's rewrite
 * (tool/run.c) or the schedule of its groups (tool/schedule.c), and the
 * outputs written.  tfuse_main is one whole run and leaves no state behind (all memory is in
 * the arena, diagnostics and edits start afresh), so the fuzzer
 * (test/fuzz/libfuzzer) can call it many times in one process. */
#include "tfuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One whole run: one project rewritten as one unit, or, for several files
 * (and -keep-going, -j, -report-json), tool/schedule.c's groups. */
int tfuse_main(int argc, char **argv) {
  Options opt = {0};
  Project proj = {0};
  int rc = 1;
  diag_init(NULL);
  edit_init(NULL);
  bool done;
  int status = options_parse(&opt, argc, argv, &done);
  if (status || done) {
    rc = status;
    goto out;
  }
  if (!project_open(&proj, &opt))
    goto out;
  if (schedule_wanted(&proj, &opt)) {
    rc = schedule_project(&proj, &opt);
    goto out;
  }
  Vec outputs = {0};
  double t0 = now_seconds();
  rc = coarsen_project_all(&proj, &opt, &outputs);
  if (rc == 0 && !opt.dump_after) {
    if (project_write(&proj, &outputs, &opt))
      record_written(&outputs);
    else
      rc = 1;
  }
  if (opt.verbose && !opt.dump_after)
    schedule_summary_one(&proj, now_seconds() - t0);

out:
  if (error_count() && rc == 0)
    rc = 1;
  arena_free_all();
  return rc;
}

#ifndef TFUSE_NO_MAIN /* the fuzzer has its own main */
int main(int argc, char **argv) { return tfuse_main(argc, argv); }
#endif
