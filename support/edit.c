/* Edits: every pass records (offset, length, text) replacements against the
 * project's text; each edit knows the file it changes.  This module sorts
 * and applies them file by file and rejects overlaps; files.c writes the
 * results atomically (all files or none) so no input is touched on
 * failure. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
