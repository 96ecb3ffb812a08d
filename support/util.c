/* Small utilities: growable buffers, pointer vectors and the run's arena. */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n);
  if (!p) {
    fputs("tfuse: error: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

void buf_add(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->data = xrealloc(b->data, b->cap);
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }

void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *tmp = xrealloc(NULL, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(tmp, (size_t)n + 1, fmt, ap);
  va_end(ap);
  buf_add(b, tmp, (size_t)n);
  free(tmp);
}

char *buf_take(Buf *b) {
  char *s = b->data ? b->data : xrealloc(NULL, 1);
  if (!b->data)
    s[0] = 0;
  b->data = NULL;
  b->len = b->cap = 0;
  return s;
}

void buf_free(Buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

/* Vec items are in the arena, so that vectors kept in the tree (a node's
 * children, a kernel's arrays) go with the run; a growing vector leaves its
 * old items behind, at most as much again. */
bool vec_has_item(const Vec *v, const void *item) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == item)
      return true;
  return false;
}

void vec_push(Vec *v, void *p) {
  if (v->len == v->cap) {
    int cap = v->cap ? v->cap * 2 : 8;
    void **items = arena_alloc(sizeof(void *) * (size_t)cap);
    if (v->len)
      memcpy(items, v->items, sizeof(void *) * (size_t)v->len);
    v->items = items;
    v->cap = cap;
  }
  v->items[v->len++] = p;
}

void vec_free(Vec *v) {
  v->items = NULL;
  v->len = v->cap = 0;
}

/* The arena is a list of chunks; a run is short, so nothing is freed early. */
typedef struct Chunk {
  struct Chunk *next;
  size_t used, size;
  max_align_t data[];
} Chunk;

static Chunk *arena_head;

void *arena_alloc(size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (!arena_head || arena_head->used + n > arena_head->size) {
    size_t size = n > 1 << 20 ? n : 1 << 20;
    Chunk *c = xrealloc(NULL, sizeof(Chunk) + size);
    c->next = arena_head;
    c->used = 0;
    c->size = size;
    arena_head = c;
  }
  void *p = (char *)arena_head->data + arena_head->used;
  arena_head->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(const char *s, size_t n) {
  char *p = arena_alloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(const char *s) { return arena_strndup(s, strlen(s)); }

char *arena_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void arena_free_all(void) {
  while (arena_head) {
    Chunk *next = arena_head->next;
    free(arena_head);
    arena_head = next;
  }
}

size_t str_hash(const char *s) {
  size_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}
