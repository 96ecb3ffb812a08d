/* Source files: their text and offset <-> line/column mapping, and a
 * project's text (its files end to end). */
#include "support.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char *path_real(const char *path) {
  char buf[PATH_MAX];
  return realpath(path, buf) ? arena_strdup(buf) : NULL;
}

void source_set_text(Source *src, const char *path, const char *text, size_t len) {
  src->path = path;
  src->len = len;
  src->text = arena_strndup(text, len);
  int cap = 1;
  for (size_t i = 0; i < src->len; i++)
    cap += src->text[i] == '\n';
  src->line_start = arena_alloc(sizeof(unsigned) * (size_t)(cap + 1));
  src->nlines = 0;
  src->line_start[src->nlines++] = 0;
  for (size_t i = 0; i < src->len; i++)
    if (src->text[i] == '\n')
      src->line_start[src->nlines++] = (unsigned)i + 1;
}

void source_join(Source *all, Vec *files, const char *path) {
  Buf b = {0};
  for (int i = 0; i < files->len; i++) {
    Source *f = files->items[i];
    if (i > 0)
      buf_add(&b, "\n", 1); /* a file's last line ends before the next file */
    f->base = (unsigned)b.len;
    buf_add(&b, f->text, f->len);
    vec_push(&all->parts, f);
  }
  source_set_text(all, path, b.data ? b.data : "", b.len);
  buf_free(&b);
}

const Source *source_file_at(const Source *src, unsigned off) {
  if (src->parts.len == 0)
    return src;
  int lo = 0, hi = src->parts.len - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (((Source *)src->parts.items[mid])->base <= off)
      lo = mid;
    else
      hi = mid - 1;
  }
  return src->parts.items[lo];
}

void source_locate(const Source *src, unsigned off, const char **path, int *line, int *col) {
  const Source *f = source_file_at(src, off);
  unsigned local = f == src ? off : off - f->base;
  source_linecol(f, local > f->len ? (unsigned)f->len : local, line, col);
  *path = f->path;
}

void source_linecol(const Source *src, unsigned off, int *line, int *col) {
  int lo = 0, hi = src->nlines - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (src->line_start[mid] <= off)
      lo = mid;
    else
      hi = mid - 1;
  }
  *line = lo + 1;
  *col = (int)(off - src->line_start[lo]) + 1;
}

const char *source_line(const Source *src, unsigned off, size_t *len) {
  int line, col;
  source_linecol(src, off, &line, &col);
  const char *start = src->text + src->line_start[line - 1];
  const char *end = memchr(start, '\n', src->len - (size_t)(start - src->text));
  *len = end ? (size_t)(end - start) : src->len - (size_t)(start - src->text);
  return start;
}

char *source_indent(const Source *src, unsigned off) {
  size_t len;
  const char *line = source_line(src, off, &len);
  size_t n = 0;
  while (n < len && (line[n] == ' ' || line[n] == '\t'))
    n++;
  return arena_strndup(line, n);
}

unsigned source_skip_space(const Source *src, unsigned off) {
  const char *t = src->text;
  while (off < src->len) {
    if (t[off] == ' ' || t[off] == '\t' || t[off] == '\n' || t[off] == '\r') {
      off++;
    } else if (t[off] == '/' && off + 1 < src->len && t[off + 1] == '/') {
      while (off < src->len && t[off] != '\n')
        off++;
    } else if (t[off] == '/' && off + 1 < src->len && t[off + 1] == '*') {
      const char *e = strstr(t + off + 2, "*/");
      off = e ? (unsigned)(e - t) + 2 : (unsigned)src->len;
    } else {
      break;
    }
  }
  return off;
}

bool source_has_directive(const Source *src, unsigned b, unsigned e) {
  for (unsigned i = b; i < e && i < src->len; i++) {
    if (src->text[i] != '\n')
      continue;
    unsigned p = source_skip_space(src, i + 1);
    if (p < e && src->text[p] == '#')
      return true;
  }
  return false;
}

/* ---- paths ---- */

bool path_under(const char *root, const char *real) {
  size_t n = strlen(root);
  if (n == 1)
    return real[0] == '/';
  return !strncmp(real, root, n) && real[n] == '/';
}

const char *cache_dir(void) {
  const char *dir = getenv("TFUSE_CACHE_DIR");
  if (!dir || !*dir) {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
      dir = arena_printf("%s/tfuse", xdg);
    else if (home && *home)
      dir = arena_printf("%s/.cache/tfuse", home);
    else
      return NULL;
  }
  /* mkdir -p */
  char *d = arena_strdup(dir);
  for (char *p = d + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(d, 0755);
      *p = '/';
    }
  mkdir(d, 0755);
  struct stat st;
  return stat(d, &st) == 0 && S_ISDIR(st.st_mode) ? d : NULL;
}
