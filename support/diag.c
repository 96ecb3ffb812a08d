/* Diagnostics: `file:line:col: error: message`, the source line and a caret
 * (chibicc's verror_at, cproc's wording: lowercase, no trailing period). */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const Source *diag_src;
static int nerrors;
/* Trials nest (a kernel's trial holds its variants' trials): each keeps
 * its own errors; the enclosing one's are saved while an inner one runs. */
typedef struct {
  int errors;
  char *msg;
  unsigned off;
} Trial;
enum { MAX_TRIALS = 16 };
static Trial trials[MAX_TRIALS];
static int trial_depth;
static bool in_trial;
static int trial_errors;
static char *trial_msg;
static unsigned trial_off;
static bool quiet; /* warnings, notes and remarks are not printed (errors are) */
static char first_error[512]; /* the run's first error, for the closing summary */

/* Keeps the first error's text (a run's reason to fail). */
static void keep_first(const char *fmt, va_list ap) {
  if (nerrors > 0)
    return;
  va_list aq;
  va_copy(aq, ap);
  vsnprintf(first_error, sizeof first_error, fmt, aq);
  va_end(aq);
}

void diag_init(const Source *src) {
  diag_src = src;
  nerrors = 0;
  in_trial = false;
  trial_depth = 0;
  trial_errors = 0;
  trial_msg = NULL;
  trial_off = 0;
  quiet = false;
  first_error[0] = 0;
}

const char *diag_first_error(void) { return first_error[0] ? first_error : NULL; }

void diag_keep_first_error(const char *msg) {
  if (!first_error[0])
    snprintf(first_error, sizeof first_error, "%s", msg);
}

/* The report itself: off is in file f's own text. */
static void vreport_file(const Source *f, unsigned local, const char *kind, const char *fmt, va_list ap) {
  if (local > f->len)
    local = (unsigned)f->len;
  int line, col;
  source_linecol(f, local, &line, &col);
  fprintf(stderr, "%s:%d:%d: %s: ", f->path, line, col, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  size_t len;
  const char *text = source_line(f, local, &len);
  fprintf(stderr, "%.*s\n", (int)len, text);
  /* Keep tabs in the caret line so it lines up under the source. */
  for (int i = 0; i < col - 1 && (size_t)i < len; i++)
    fputc(text[i] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

static void vreport(unsigned off, const char *kind, const char *fmt, va_list ap) {
  /* off is in the project's text: report it in the file it lies in. */
  const Source *f = diag_src ? source_file_at(diag_src, off) : NULL;
  if (!f || !f->text) { /* no text yet */
    fprintf(stderr, "tfuse: %s: ", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    return;
  }
  vreport_file(f, f == diag_src ? off : off - f->base, kind, fmt, ap);
}

/* In a trial, an error is kept, not printed (the first one's text and
 * place make the warning that leaves the kernel unchanged). */
static bool trial_keeps(unsigned off, const char *fmt, va_list ap) {
  if (!in_trial)
    return false;
  if (trial_errors++ == 0) {
    char buf[1024];
    va_list aq;
    va_copy(aq, ap);
    vsnprintf(buf, sizeof buf, fmt, aq);
    va_end(aq);
    trial_msg = arena_strdup(buf);
    trial_off = off;
  }
  return true;
}

void diag_in_file(const Source *file, unsigned off, bool error, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (error && trial_keeps(0, fmt, ap)) {
    va_end(ap);
    return;
  }
  if (error) {
    keep_first(fmt, ap);
    nerrors++;
  }
  if (error || !quiet)
    vreport_file(file, off, error ? "error" : "warning", fmt, ap);
  va_end(ap);
}

void error_at(unsigned off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(off, fmt, ap);
  va_end(ap);
}

void verror_at(unsigned off, const char *fmt, va_list ap) {
  if (!trial_keeps(off, fmt, ap)) {
    keep_first(fmt, ap);
    nerrors++;
    vreport(off, "error", fmt, ap);
  }
}

void warning_at(unsigned off, const char *fmt, ...) {
  if (quiet)
    return;
  va_list ap;
  va_start(ap, fmt);
  vreport(off, "warning", fmt, ap);
  va_end(ap);
}

void note_at(unsigned off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!in_trial && !quiet)
    vreport(off, "note", fmt, ap);
  va_end(ap);
}

void remark_at(unsigned off, const char *fmt, ...) {
  if (quiet)
    return;
  va_list ap;
  va_start(ap, fmt);
  vreport(off, "remark", fmt, ap);
  va_end(ap);
}

void error_plain(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (trial_keeps(0, fmt, ap)) {
    va_end(ap);
    return;
  }
  keep_first(fmt, ap);
  fputs("tfuse: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  nerrors++;
}

void warning_plain(const char *fmt, ...) {
  if (quiet)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("tfuse: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int error_count(void) { return nerrors; }

void diag_begin_trial(void) {
  if (in_trial && trial_depth < MAX_TRIALS)
    trials[trial_depth++] = (Trial){trial_errors, trial_msg, trial_off};
  in_trial = true;
  trial_errors = 0;
  trial_msg = NULL;
  trial_off = 0;
}

int diag_end_trial(char **first_message, unsigned *first_off) {
  *first_message = trial_msg;
  *first_off = trial_off;
  int n = trial_errors;
  if (trial_depth > 0) {
    Trial t = trials[--trial_depth];
    trial_errors = t.errors;
    trial_msg = t.msg;
    trial_off = t.off;
  } else {
    in_trial = false;
  }
  return n;
}

void diag_set_quiet(bool on) { quiet = on; }
