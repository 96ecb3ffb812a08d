/* files: whole files read into a Source and written out, every failure
 * reported (diag.c).  Writing several files is all or none: every
 * temporary file first, then the renames. */
#include "support.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool source_load(Source *src, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    error_plain("cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  Buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    buf_add(&b, chunk, n);
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    error_plain("cannot read '%s'", path);
    buf_free(&b);
    return false;
  }
  source_set_text(src, path, b.data ? b.data : "", b.len);
  buf_free(&b);
  return true;
}

bool file_write(const char *path, const char *data, size_t len) {
  if (!path || strcmp(path, "-") == 0) {
    if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
      error_plain("cannot write to standard output: %s", strerror(errno));
      return false;
    }
    return true;
  }
  char *d = (char *)data;
  return files_write(1, &path, &d, &len);
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

bool files_write(int n, const char **paths, char **data, const size_t *lens) {
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
