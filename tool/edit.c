/* Edits: every pass records (offset, length, text) replacements against the
 * project's text; each edit knows the file it changes.  This module sorts
 * and applies them file by file, rejects overlaps, and writes the results
 * atomically (all files or none) so no input is touched on failure. */
#include "tfuse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int edit_seq;
static const Source *edit_project;

void edit_init(const Source *project) {
  edit_seq = 0;
  edit_project = project;
}

void edit_replace(EditList *el, unsigned off, unsigned len, const char *text) {
  Edit *e = arena_alloc(sizeof *e);
  e->file = edit_project ? source_file_at(edit_project, off) : NULL;
  e->off = off;
  e->len = len;
  e->text = arena_strdup(text);
  e->seq = edit_seq++;
  vec_push(&el->edits, e);
}

void edit_insert(EditList *el, unsigned off, const char *text) {
  edit_replace(el, off, 0, text);
}

bool edit_touches(const EditList *el, const Source *file) {
  for (int i = 0; i < el->edits.len; i++)
    if (((Edit *)el->edits.items[i])->file == file)
      return true;
  return false;
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

char *edit_apply(EditList *el, const Source *file, size_t *out_len) {
  Vec mine = {0};
  for (int i = 0; i < el->edits.len; i++) {
    Edit *e = el->edits.items[i];
    if (e->file == file)
      vec_push(&mine, e);
  }
  if (mine.len > 1) /* with none, items is NULL, which qsort must not get */
    qsort(mine.items, (size_t)mine.len, sizeof(void *), cmp_edit);
  Buf out = {0};
  unsigned pos = 0;
  for (int i = 0; i < mine.len; i++) {
    Edit *e = mine.items[i];
    unsigned off = e->off - file->base;
    if (off < pos || off + e->len > file->len) {
      error_at(e->off, "internal error: overlapping rewrites at this point");
      buf_free(&out);
      vec_free(&mine);
      return NULL;
    }
    buf_add(&out, file->text + pos, off - pos);
    buf_puts(&out, e->text);
    pos = off + e->len;
  }
  buf_add(&out, file->text + pos, file->len - pos);
  vec_free(&mine);
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
  char *d = (char *)data;
  return edit_write_files(1, &path, &d, &len);
}

/* Whether path names something other than a regular file (/dev/null, a
 * pipe): written in place, never replaced by a rename. */
static bool not_a_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static bool write_in_place(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  bool w = f && fwrite(data, 1, len, f) == len;
  if (f)
    w = (fclose(f) == 0) && w;
  if (!w)
    error_plain("cannot write '%s': %s", path, strerror(errno));
  return w;
}

bool edit_write_files(int n, const char **paths, char **data, const size_t *lens) {
  /* Every file to a temporary beside it first; the renames only when all
   * are written, so on failure no file has changed.  What is not a
   * regular file (a device, a pipe) is written last, in place. */
  char **tmps = arena_alloc(sizeof(char *) * (size_t)(n > 0 ? n : 1));
  int made = 0;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    if (not_a_file(paths[i])) {
      tmps[i] = NULL;
      made++;
      continue;
    }
    tmps[i] = arena_printf("%s.tfuse-XXXXXX", paths[i]);
    int fd = mkstemp(tmps[i]);
    if (fd < 0) {
      error_plain("cannot create a temporary file beside '%s': %s", paths[i], strerror(errno));
      ok = false;
      break;
    }
    made++;
    FILE *f = fdopen(fd, "wb");
    bool w = f && fwrite(data[i], 1, lens[i], f) == lens[i];
    if (f)
      w = (fclose(f) == 0) && w;
    else
      close(fd);
    if (!w) {
      error_plain("cannot write '%s': %s", tmps[i], strerror(errno));
      ok = false;
    }
    /* mkstemp creates 0600; give the output ordinary permissions. */
    chmod(tmps[i], 0644);
  }
  if (!ok) {
    for (int i = 0; i < made; i++)
      if (tmps[i])
        unlink(tmps[i]);
    return false;
  }
  for (int i = 0; i < n; i++)
    if (tmps[i] && rename(tmps[i], paths[i]) != 0) {
      error_plain("cannot rename '%s' to '%s': %s", tmps[i], paths[i], strerror(errno));
      for (int j = i; j < n; j++)
        if (tmps[j])
          unlink(tmps[j]);
      return false;
    }
  for (int i = 0; i < n; i++)
    if (!tmps[i] && !write_in_place(paths[i], data[i], lens[i]))
      return false;
  return true;
}
