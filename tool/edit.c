/* Edits: every pass records (offset, length, text) replacements against the
 * input; this module sorts and applies them, rejects overlaps, and writes
 * the result atomically so the input is never touched on failure. */
#include "tfuse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int edit_seq;

void edit_init(void) { edit_seq = 0; }

void edit_replace(EditList *el, unsigned off, unsigned len, const char *text) {
  Edit *e = arena_alloc(sizeof *e);
  e->off = off;
  e->len = len;
  e->text = arena_strdup(text);
  e->seq = edit_seq++;
  vec_push(&el->edits, e);
}

void edit_insert(EditList *el, unsigned off, const char *text) {
  edit_replace(el, off, 0, text);
}

static int cmp_edit(const void *a, const void *b) {
  const Edit *x = *(Edit *const *)a, *y = *(Edit *const *)b;
  if (x->off != y->off)
    return x->off < y->off ? -1 : 1;
  /* Pure insertions before a replacement at the same offset. */
  if ((x->len == 0) != (y->len == 0))
    return x->len == 0 ? -1 : 1;
  return x->seq - y->seq;
}

char *edit_apply(EditList *el, const Source *src, size_t *out_len) {
  if (el->edits.len > 1) /* with none, items is NULL, which qsort must not get */
    qsort(el->edits.items, (size_t)el->edits.len, sizeof(void *), cmp_edit);
  Buf out = {0};
  unsigned pos = 0;
  for (int i = 0; i < el->edits.len; i++) {
    Edit *e = el->edits.items[i];
    if (e->off < pos) {
      error_at(e->off, "internal error: overlapping rewrites at this point");
      buf_free(&out);
      return NULL;
    }
    buf_add(&out, src->text + pos, e->off - pos);
    buf_puts(&out, e->text);
    pos = e->off + e->len;
  }
  buf_add(&out, src->text + pos, src->len - pos);
  *out_len = out.len;
  return buf_take(&out);
}

char *edit_render_range(EditList *el, const Source *src, unsigned b, unsigned e) {
  if (el->edits.len > 1)
    qsort(el->edits.items, (size_t)el->edits.len, sizeof(void *), cmp_edit);
  Buf out = {0};
  unsigned pos = b;
  for (int i = 0; i < el->edits.len; i++) {
    Edit *x = el->edits.items[i];
    if (x->off < b || x->off >= e || x->off + x->len > e)
      continue; /* another range's */
    if (x->off < pos) {
      error_at(x->off, "internal error: overlapping rewrites at this point");
      buf_free(&out);
      return NULL;
    }
    buf_add(&out, src->text + pos, x->off - pos);
    buf_puts(&out, x->text);
    pos = x->off + x->len;
  }
  buf_add(&out, src->text + pos, e - pos);
  char *text = arena_strndup(out.data ? out.data : "", out.len);
  buf_free(&out);
  return text;
}

bool edit_write_file(const char *path, const char *data, size_t len) {
  if (!path || strcmp(path, "-") == 0) {
    if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
      error_plain("cannot write to standard output: %s", strerror(errno));
      return false;
    }
    return true;
  }
  char *tmp = arena_printf("%s.tfuse-XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    error_plain("cannot create a temporary file beside '%s': %s", path, strerror(errno));
    return false;
  }
  FILE *f = fdopen(fd, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  if (f)
    ok = (fclose(f) == 0) && ok;
  else
    close(fd);
  if (!ok) {
    error_plain("cannot write '%s': %s", tmp, strerror(errno));
    unlink(tmp);
    return false;
  }
  /* mkstemp creates 0600; give the output ordinary permissions. */
  chmod(tmp, 0644);
  if (rename(tmp, path) != 0) {
    error_plain("cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
    unlink(tmp);
    return false;
  }
  return true;
}
