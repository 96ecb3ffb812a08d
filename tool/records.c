/* records: what a run did, kept as lines that tool/schedule.c gathers
 * (from each group's child process) for the closing summary and
 * -report-json: each kernel's decision and reason, each file's parse, the
 * -kernel names a group defines, the files it staged, and the files and
 * kernels its parse saw.  The lines' fields are listed in schedule.c's
 * opening comment. */
#include "tfuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Buf records;              /* this run's (or this group's) lines */
static const Project *rec_project; /* whose text kernels' offsets are in */
static Vec rec_kernels;          /* Kernel*: those with a K line (malloc'd vector, not the arena's) */

/* A field: a tab, then the text with its tabs, newlines and backslashes
 * escaped (a file's name may hold any of them; unescape undoes it). */
static void rec_field(Buf *b, const char *s) {
  buf_puts(b, "\t");
  for (; s && *s; s++)
    buf_puts(b, *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\\' ? "\\\\" : (char[2]){*s, 0});
}

char *record_unescape(char *s) {
  char *w = s;
  for (char *r = s; *r; r++)
    *w++ = *r != '\\' || !r[1] ? *r : *++r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
  *w = 0;
  return s;
}

void record_begin(const Project *p) {
  buf_free(&records);
  rec_project = p;
  free(rec_kernels.items);
  rec_kernels = (Vec){0};
}

void record_kernel(Kernel *k, const char *decision, const char *reason) {
  if (vec_has_item(&rec_kernels, k))
    return;
  if (rec_kernels.len == rec_kernels.cap) {
    rec_kernels.cap = rec_kernels.cap ? 2 * rec_kernels.cap : 16;
    rec_kernels.items = realloc(rec_kernels.items, sizeof(void *) * (size_t)rec_kernels.cap);
  }
  rec_kernels.items[rec_kernels.len++] = k;
  const char *path = "?";
  int line = 0, col = 0;
  if (rec_project && rec_project->text.text)
    source_locate(&rec_project->text, k->fn->loc, &path, &line, &col);
  buf_puts(&records, "K");
  rec_field(&records, path);
  buf_printf(&records, "\t%d\t%d", line, col);
  rec_field(&records, k->sym->name);
  rec_field(&records, decision);
  rec_field(&records, k->p.factor == FACTOR_AUTO ? "auto"
                                                 : arena_printf("%s %s.%s", params_factor_text(&k->p),
                                                                mode_name(k->p.mode), params_dim_text(&k->p)));
  rec_field(&records, reason ? reason : "");
  /* The census: the construct table's rows the kernel reaches, as checked
   * for a coarsened one (legality.c). */
  Buf rows = {0};
  for (int i = 0; !strcmp(decision, "coarsened") && i < k->constructs.len; i++)
    buf_printf(&rows, "%s%s", i ? "\x1f" : "", ((const Construct *)k->constructs.items[i])->name);
  rec_field(&records, rows.data ? rows.data : "");
  buf_free(&rows);
  buf_printf(&records, "\t%d\n", !strcmp(decision, "coarsened") ? k->dispatches : 0);
}

static void record_file(const char *path, const char *status, const char *reason) {
  buf_puts(&records, "F");
  rec_field(&records, path);
  rec_field(&records, status);
  rec_field(&records, reason ? reason : "");
  buf_puts(&records, "\n");
}

void record_written(const Vec *outputs) {
  for (int i = 0; i < outputs->len; i++)
    record_file(((Output *)outputs->items[i])->file->path, "written", NULL);
}

/* A kernel's name and where it is, in a record. */
static void record_at(const char *tag, const char *name, unsigned off) {
  const char *path = "?";
  int line = 0, col = 0;
  source_locate(&rec_project->text, off, &path, &line, &col);
  const char *real = path_real(path);
  buf_puts(&records, tag);
  rec_field(&records, name);
  rec_field(&records, real ? real : path);
  buf_printf(&records, "\t%d\t%d\n", line, col);
}

void record_parsed(const Project *p, const Unit *u) {
  for (int i = 0; i < p->files.len; i++) {
    const char *path = ((Source *)p->files.items[i])->path, *real = path_real(path);
    record_file(path, "parsed", NULL);
    buf_puts(&records, "P");
    rec_field(&records, real ? real : path);
    buf_puts(&records, "\n");
  }
  for (int i = 0; i < u->functions.len; i++) {
    const Node *fn = u->functions.items[i];
    if (fn->sym && fn->sym->is_global_fn)
      record_at("D", fn->sym->name, fn->loc);
  }
  /* A kernel launched or declared here and defined in none of its files:
   * a use of one defined elsewhere (launches first: the better place). */
  for (int i = 0; i < u->launches.len; i++) {
    const Node *call = u->launches.items[i];
    if (call->sym && call->sym->is_global_fn && !call->sym->body)
      record_at("U", call->sym->name, call->begin);
  }
  for (int i = 0; i < u->fn_decls.len; i++) {
    const Node *fn = u->fn_decls.items[i];
    if (fn->sym && fn->sym->is_global_fn && !fn->sym->body)
      record_at("U", fn->sym->name, fn->loc);
  }
}

static const char *failure_reason(const char *what) {
  const char *e = diag_first_error();
  return e ? arena_printf("%s (%s)", what, e) : what;
}

void record_parse_failure(const Project *p) {
  const char *why = failure_reason("does not parse");
  for (int i = 0; i < p->inputs.len; i++)
    record_file(((Input *)p->inputs.items[i])->path, "failed", why);
}

void record_failure(const Vec *kernels) {
  const char *why = failure_reason("the rewrite of its files failed");
  for (int i = 0; i < kernels->len; i++) {
    Kernel *k = kernels->items[i];
    if (k->p.factor != 1)
      record_kernel(k, "unchanged", why);
  }
}

void record_matched(const char *name) {
  buf_puts(&records, "M");
  rec_field(&records, name);
  buf_puts(&records, "\n");
}

void record_output(const char *dest, const char *staged, const char *path) {
  buf_puts(&records, "O");
  rec_field(&records, dest);
  rec_field(&records, staged);
  rec_field(&records, path);
  buf_puts(&records, "\n");
}

const char *records_text(size_t *len) {
  if (len)
    *len = records.len;
  return records.data ? records.data : "";
}
