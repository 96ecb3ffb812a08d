/* tfuse support: what every floor above uses.  Arenas, growable vectors
 * and buffers; source text and offsets; diagnostics; the edit list and
 * whole-file reading and writing.  Nothing here calls a pass or the
 * driver (scripts/layers.py checks it).  One section per file, as in
 * chibicc. */
#ifndef TFUSE_SUPPORT_H
#define TFUSE_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ===================== support/util.c ===================== */

/* A growable byte buffer; text is always NUL-terminated. */
typedef struct {
  char *data;
  size_t len, cap;
} Buf;

void buf_add(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *buf_take(Buf *b); /* returns data, leaves b empty */
void buf_free(Buf *b);

/* A character of a C/C++ identifier: letter, digit or underscore. */
bool ident_char(char c);

/* A pointer vector; its items are in the arena, and vec_free only empties it. */
typedef struct {
  void **items;
  int len, cap;
} Vec;

void vec_push(Vec *v, void *p);
bool vec_has_item(const Vec *v, const void *item); /* whether item is one of v's */
void vec_free(Vec *v);

/* All allocations of one run live in one arena and are freed at its end
 * (arena_free_all), Vec items included. */
void *arena_alloc(size_t n); /* zeroed */
char *arena_strdup(const char *s);
char *arena_strndup(const char *s, size_t n);
char *arena_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void arena_free_all(void);
/* FNV-1a hash of a string. */
size_t str_hash(const char *s);

/* ===================== support/source.c ===================== */

/* A file's text and a line table.  The passes read one Source, the
 * project's text: the files of the project end to end (parts), each at its
 * base offset, with a newline between two files.  So an offset names a
 * file and a place in it; source_file_at says which file. */
typedef struct Source Source;
struct Source {
  const char *path;
  char *text;
  size_t len;
  unsigned *line_start; /* offsets of line starts */
  int nlines;
  unsigned base; /* a file of a project: where its text starts in the project's */
  Vec parts;     /* the project's text: Source* of its files, by base */
};

/* The real path of path (realpath), or NULL when there is none. */
const char *path_real(const char *path);
/* Whether a real path lies under the real path root. */
bool path_under(const char *root, const char *real);
/* The user's cache folder ($TFUSE_CACHE_DIR, else $XDG_CACHE_HOME/tfuse,
 * else ~/.cache/tfuse), created if missing; NULL when there is none. */
const char *cache_dir(void);
/* Takes text (len bytes, copied) as the file `path`. */
void source_set_text(Source *src, const char *path, const char *text, size_t len);
/* Lays the files end to end into one text (their bases are set). */
void source_join(Source *all, Vec *files, const char *path);
/* The file of a project's text that off lies in (src itself if it has no parts). */
const Source *source_file_at(const Source *src, unsigned off);
/* File, line and column of off (in the file it lies in). */
void source_locate(const Source *src, unsigned off, const char **path, int *line, int *col);
void source_linecol(const Source *src, unsigned off, int *line, int *col);
/* The line containing off, without its newline. */
const char *source_line(const Source *src, unsigned off, size_t *len);
/* Whitespace at the start of the line containing off. */
char *source_indent(const Source *src, unsigned off);
/* Offset of the first non-blank, non-comment byte at or after off (or len). */
unsigned source_skip_space(const Source *src, unsigned off);
/* Whether a line inside [b, e) begins, after blanks, with `#` (a preprocessor directive). */
bool source_has_directive(const Source *src, unsigned b, unsigned e);

/* ===================== support/diag.c ===================== */

/* Diagnostics print `file:line:col: error: message`, the source line and a
 * caret, cproc/chibicc style.  error_count() decides the exit status.
 * diag_init starts a run: no errors, no trial, locations in src. */
void diag_init(const Source *src);
void error_at(unsigned off, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void verror_at(unsigned off, const char *fmt, va_list ap);
void warning_at(unsigned off, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void note_at(unsigned off, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void remark_at(unsigned off, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error (counted) or a warning at off of a file outside the project's text. */
void diag_in_file(const Source *file, unsigned off, bool error, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* `tfuse: error: ...` with no location. */
void error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_count(void);
/* The text of the run's first error (no location), or NULL. */
const char *diag_first_error(void);
/* An error printed elsewhere (the compiler's, in a header outside the
 * project): the run's first error if none came before. */
void diag_keep_first_error(const char *msg);
/* While muted (the -skip-unsafe trial of one kernel), errors are counted
 * but the text is kept for a later warning instead of being printed. */
void diag_begin_trial(void);
int diag_end_trial(char **first_message, unsigned *first_off);
/* Quiet: warnings, notes and remarks are dropped, errors still printed (the
 * driver's second emission, whose other diagnostics the first printed). */
void diag_set_quiet(bool on);

/* ===================== support/edit.c ===================== */

/* Passes never write files.  They record edits against the project's text
 * and this module applies them to each file, rejecting overlaps. */
typedef struct {
  const Source *file; /* the file it changes */
  unsigned off, len;  /* replaced range of the project's text */
  char *text;         /* replacement */
  int seq;            /* insertion order: ties at one offset keep it */
} Edit;

typedef struct {
  Vec edits;
} EditList;

/* Starts a run: insertion order counts from zero again; edits are against
 * `project` (the files in its parts once it has them). */
void edit_init(const Source *project);
void edit_replace(EditList *el, unsigned off, unsigned len, const char *text);
void edit_insert(EditList *el, unsigned off, const char *text);
/* Whether some edit changes `file`. */
bool edit_touches(const EditList *el, const Source *file);
/* Applies the edits that change `file` to its text; returns NULL (after an
 * error) on overlap. */
char *edit_apply(EditList *el, const Source *file, size_t *out_len);
/* The text of [b, e) of the project's text with the edits that lie within
 * it applied (the others are left out); an arena string, or NULL (after an
 * error) on overlap.  -factor auto renders each variant of a kernel this way. */
char *edit_render_range(EditList *el, const Source *src, unsigned b, unsigned e);

/* ===================== support/files.c ===================== */

/* Reads the file at path into src; false after printing an error. */
bool source_load(Source *src, const char *path);
/* Writes data to path atomically (temporary file in the same folder, then
 * rename); "-" is stdout.  Returns false after printing an error. */
bool file_write(const char *path, const char *data, size_t len);
/* Writes n files, all or none: every temporary file first, then the renames. */
bool files_write(int n, const char **paths, char **data, const size_t *lens);

#endif
