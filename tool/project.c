/* project: the files of one run, and where their new text goes.
 *
 * Contract: project_open turns the command line into inputs (the files
 * given, or with `-p BUILD_DIR` and none, the database's CUDA files), each
 * with its compiler flags (its database entry's, then those of the command
 * line), and the root (-root, else the inputs' deepest common folder).
 * parse.c then adds the headers under the root.  project_check_others
 * reports launches tfuse cannot see (files of the database not given);
 * project_render applies the edits file by file (support/edit.c), and
 * project_write writes every changed file, all or none:
 *   -o FILE or standard output  one input, and no header changed
 *   -i                          each changed file in place (a symbolic link's target)
 *   -out-dir DIR                each changed file at DIR/<its path under the root>
 */
#include "tfuse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder of a real path ("/" for a file at the top). */
static char *dir_of(const char *real) {
  const char *slash = strrchr(real, '/');
  return slash && slash != real ? arena_strndup(real, (size_t)(slash - real)) : arena_strdup("/");
}

bool project_under_root(const Project *p, const char *real) { return path_under(p->root, real); }

void project_read_flags(Project *p, const Options *opt) {
  for (int i = 0; i < p->inputs.len; i++) {
    Input *in = p->inputs.items[i];
    if (!in->parser_flags_read)
      flags_parser_args(opt->cuda_path, in->cc, &in->flags, &in->parser_flags);
    in->parser_flags_read = true;
  }
}

/* A real path as messages show it: relative to the current folder if under it. */
static const char *shown_path(const char *real) {
  char cwd[PATH_MAX];
  size_t n;
  if (!getcwd(cwd, sizeof cwd) || !(n = strlen(cwd)) || strncmp(real, cwd, n) || real[n] != '/')
    return real;
  return real + n + 1;
}

static Input *make_input(const char *path, const char *real, const CompdbEntry *e, const Options *opt) {
  Input *in = arena_alloc(sizeof *in);
  in->path = path;
  in->real = real;
  in->cc = e ? e->cc : CC_NVCC;
  if (e)
    for (int i = 0; i < e->flags.len; i++)
      vec_push(&in->flags, e->flags.items[i]);
  flags_normalize(in->cc, (char *const *)opt->compiler_args.items, opt->compiler_args.len, NULL, &in->flags);
  in->conflict = e ? e->conflict : NULL;
  return in;
}

/* A file the database lists twice with flags the parser reads differently
 * (two targets, two configurations) is one input with an alternative per
 * other set of flags: schedule.c rewrites it with each and writes it only
 * where all give the same text. */
static void add_input(Project *p, const char *path, const char *real, const CompdbEntry *e, const Options *opt) {
  for (int i = 0; i < p->inputs.len; i++)
    if (!strcmp(((Input *)p->inputs.items[i])->real, real))
      return; /* given twice */
  Input *in = make_input(path, real, e, opt);
  for (int i = 0; e && i < e->alts.len; i++)
    vec_push(&in->alts, make_input(path, real, e->alts.items[i], opt));
  vec_push(&p->inputs, in);
}

bool project_open(Project *p, const Options *opt) {
  Vec entries = {0};
  if (opt->compdb_dir && !compdb_load(opt->compdb_dir, &entries))
    return false;
  bool ok = true;
  if (opt->inputs.len == 0) {
    for (int i = 0; i < entries.len; i++) {
      CompdbEntry *e = entries.items[i];
      if (e->cuda && access(e->file, R_OK) == 0)
        add_input(p, e->file, e->file, e, opt);
    }
    if (!p->inputs.len) {
      error_plain("'%s/compile_commands.json' lists no CUDA file", opt->compdb_dir);
      return false;
    }
  }
  for (int i = 0; i < opt->inputs.len; i++) {
    const char *path = opt->inputs.items[i];
    const char *real = path_real(path);
    FILE *f = real ? fopen(path, "rb") : NULL;
    if (!f) {
      error_plain("cannot open '%s': %s", path, strerror(errno));
      ok = false;
      continue;
    }
    fclose(f);
    CompdbEntry *e = NULL;
    for (int j = 0; j < entries.len && !e; j++)
      if (!strcmp(((CompdbEntry *)entries.items[j])->file, real))
        e = entries.items[j];
    if (opt->compdb_dir && !e) {
      error_plain("'%s' has no entry in '%s/compile_commands.json'", path, opt->compdb_dir);
      ok = false;
      continue;
    }
    add_input(p, path, real, e, opt);
  }
  if (!ok)
    return false;
  if (p->inputs.len > 1 && !opt->in_place && !opt->out_dir) {
    error_plain("tfuse rewrites %d files; give -i (in place) or -out-dir DIR", p->inputs.len);
    return false;
  }

  /* The root: given, or the inputs' deepest common folder. */
  if (opt->root) {
    p->root = path_real(opt->root);
    struct stat st;
    if (!p->root || stat(p->root, &st) != 0 || !S_ISDIR(st.st_mode)) {
      error_plain("the root '%s' is not a folder", opt->root);
      return false;
    }
  } else {
    char *root = dir_of(((Input *)p->inputs.items[0])->real);
    for (int i = 1; i < p->inputs.len; i++) {
      const char *d = dir_of(((Input *)p->inputs.items[i])->real);
      size_t n = 0;
      while (root[n] && root[n] == d[n])
        n++;
      /* Back to the last whole folder both share. */
      if (!(root[n] == 0 && (d[n] == '/' || d[n] == 0)))
        while (n > 0 && root[n] != '/')
          n--;
      root[n ? n : 1] = 0;
    }
    p->root = root;
  }

  for (int i = 0; i < entries.len; i++) {
    CompdbEntry *e = entries.items[i];
    bool given = false;
    for (int j = 0; j < p->inputs.len && !given; j++)
      given = !strcmp(((Input *)p->inputs.items[j])->real, e->file);
    if (!given)
      vec_push(&p->others, (void *)shown_path(e->file));
  }
  vec_free(&entries);
  return true;
}


long text_find_word(const char *t, size_t len, size_t from, const char *name) {
  size_t nl = strlen(name);
  for (size_t i = from; i < len;) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    if (!(i > 0 && ident_char(t[i - 1])) && i + nl <= len && !strncmp(t + i, name, nl) &&
        !(i + nl < len && ident_char(t[i + nl])))
      return (long)i;
    i++;
  }
  return -1;
}

/* The offset of the first `NAME<<<` or `NAME<...><<<` in text (outside
 * comments and literals), or -1. */
static long find_launch(const Source *f, const char *name) {
  for (long i = 0; (i = text_find_word(f->text, f->len, (size_t)i, name)) >= 0; i += (long)strlen(name))
    if (launch_chevrons(f, (unsigned)i + (unsigned)strlen(name)))
      return i;
  return -1;
}

bool project_check_others(const Project *p, Vec *kernels, const Options *opt, char **refusal) {
  bool ok = true;
  for (int i = 0; i < p->others.len; i++) {
    Source f = {0};
    FILE *probe = fopen(p->others.items[i], "rb");
    if (!probe)
      continue; /* a file the database lists but that is gone */
    fclose(probe);
    if (!source_load(&f, p->others.items[i]))
      continue;
    for (int j = 0; j < kernels->len; j++) {
      Kernel *k = kernels->items[j];
      long at = k->p.factor > 1 ? find_launch(&f, k->sym->name) : -1;
      if (at < 0)
        continue;
      /* As for a kernel with no launch in the files given (launch.c). */
      bool error = k->p.mode == MODE_THREAD && !opt->external_launches;
      if (k->p.mode == MODE_BLOCK && opt->external_launches)
        continue;
      if (refusal && error && !*refusal) {
        int line, col;
        source_linecol(&f, (unsigned)at, &line, &col);
        *refusal = arena_printf("launched at %s:%d:%d, in a file that is not among the files given: that launch "
                                "would not be rewritten; give this file too (or -external-launches)",
                                f.path, line, col);
      } else if (!refusal)
        diag_in_file(&f, (unsigned)at,
                     error, "launch of coarsened kernel '%s' in a file that is not among the files given: it would "
                            "not be rewritten%s",
                     k->sym->name, error ? "; give this file too (or -external-launches)" : "");
      ok &= !error;
    }
  }
  return ok;
}

bool project_make_parent(const char *path) {
  char *d = arena_strdup(path);
  char *slash = strrchr(d, '/');
  if (!slash || slash == d)
    return true;
  *slash = 0;
  for (char *q = d + 1; *q; q++)
    if (*q == '/') {
      *q = 0;
      mkdir(d, 0755);
      *q = '/';
    }
  mkdir(d, 0755);
  struct stat st;
  if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
    error_plain("cannot create the folder '%s'%s", d, stat(d, &st) == 0 ? ": a file has that name" : "");
    return false;
  }
  return true;
}

/* One file's text with its edits, as an Output (NULL after an error). */
static Output *render(const Source *f, EditList *el) {
  Output *o = arena_alloc(sizeof *o);
  o->file = f;
  char *text = edit_apply(el, f, &o->len);
  if (!text)
    return NULL;
  o->text = arena_strndup(text, o->len);
  free(text);
  return o;
}

bool project_render(Project *p, EditList *el, const Options *opt, Vec *outs) {
  if (!opt->in_place && !opt->out_dir) {
    /* -o FILE or standard output: the one input, whatever changed in it. */
    for (int i = 1; i < p->files.len; i++)
      if (edit_touches(el, p->files.items[i])) {
        const char *path = ((Source *)p->files.items[i])->path, *real = path_real(path);
        error_plain("tfuse also rewrites '%s' (a header of the project); -o writes one file: give -i (in place) "
                    "or -out-dir DIR", real ? shown_path(real) : path);
        return false;
      }
    Output *o = render(p->files.items[0], el);
    if (o)
      vec_push(outs, o);
    return o != NULL;
  }
  for (int i = 0; i < p->files.len; i++) {
    if (!edit_touches(el, p->files.items[i]))
      continue;
    Output *o = render(p->files.items[i], el);
    if (!o)
      return false;
    vec_push(outs, o);
  }
  return true;
}

const char *project_destination(const Project *p, const Output *o, const Options *opt) {
  if (!opt->in_place && !opt->out_dir)
    return opt->output ? opt->output : "-";
  const char *real = path_real(o->file->path);
  if (!opt->out_dir) /* through a symbolic link: the file every other name of it reaches */
    return real ? real : o->file->path;
  if (!real || !project_under_root(p, real)) {
    error_plain("'%s' is not under the root '%s', so it has no place under -out-dir", o->file->path, p->root);
    return NULL;
  }
  return arena_printf("%s/%s", opt->out_dir, real + strlen(p->root) + (strlen(p->root) > 1));
}

bool project_write(const Project *p, const Vec *outs, const Options *opt) {
  if (!opt->in_place && !opt->out_dir) {
    const Output *o = outs->items[0];
    return file_write(opt->output, o->text, o->len);
  }
  int n = outs->len;
  const char **paths = arena_alloc(sizeof(char *) * (size_t)(n ? n : 1));
  char **data = arena_alloc(sizeof(char *) * (size_t)(n ? n : 1));
  size_t *lens = arena_alloc(sizeof(size_t) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    const Output *o = outs->items[i];
    if (!(paths[i] = project_destination(p, o, opt)))
      return false;
    data[i] = o->text;
    lens[i] = o->len;
  }
  for (int i = 0; i < n && opt->out_dir; i++)
    if (!project_make_parent(paths[i]))
      return false;
  return files_write(n, paths, data, lens);
}
