/* annotate: chooses the kernels to coarsen and their parameters.
 *
 * Contract: requires the parsed Unit; provides Kernel records with their
 * effective Params.  A kernel is chosen when `#pragma tfuse coarsen` stands
 * on the line before it (before its `template <...>` line for a template)
 * or when -kernel names it.  Parameters: the defaults (factor 2, dim x,
 * block mode, stride mapping), overridden by the pragma's clauses,
 * overridden by the command line.
 *
 *   #pragma tfuse coarsen factor(4) dim(y) mode(thread)
 *   __global__ void eliminate(float *in, float *out) { ... }
 */
#include "passes.h"

#include <ctype.h>
#include <string.h>

typedef struct {
  unsigned off, len; /* the pragma line */
  Params p;
  bool used;
} Pragma;

static bool is_word(const char *t, const char *w, size_t n) {
  return !strncmp(t, w, n) && !(isalnum((unsigned char)t[n]) || t[n] == '_');
}

/* Parses one `#pragma tfuse ...` line starting at `hash`; reports errors. */
static bool parse_pragma(const Source *src, unsigned hash, unsigned eol, Pragma *pr) {
  const char *t = src->text;
  unsigned i = hash + 1;
  while (i < eol && isspace((unsigned char)t[i]))
    i++;
  i += 6; /* pragma */
  while (i < eol && isspace((unsigned char)t[i]))
    i++;
  i += 5; /* tfuse */
  while (i < eol && isspace((unsigned char)t[i]))
    i++;
  if (!is_word(t + i, "coarsen", 7)) {
    error_at(i, "unknown tfuse pragma: expected 'coarsen'");
    return false;
  }
  i += 7;
  for (;;) {
    while (i < eol && isspace((unsigned char)t[i]))
      i++;
    if (i >= eol || (t[i] == '/' && i + 1 < eol && (t[i + 1] == '/' || t[i + 1] == '*')))
      break;
    unsigned name = i;
    while (i < eol && (isalnum((unsigned char)t[i]) || t[i] == '_'))
      i++;
    size_t nlen = i - name;
    if (nlen == 0 || i >= eol || t[i] != '(') {
      error_at(name, "expected a clause such as 'factor(4)' in '#pragma tfuse coarsen'");
      return false;
    }
    unsigned vb = i + 1, ve = vb;
    while (ve < eol && t[ve] != ')')
      ve++;
    if (ve >= eol) {
      error_at(i, "missing ')' in '#pragma tfuse coarsen' clause");
      return false;
    }
    char *value = arena_strndup(t + vb, ve - vb);
    /* Trim blanks inside the parentheses. */
    while (*value == ' ' || *value == '\t')
      value++;
    for (char *e = value + strlen(value); e > value && (e[-1] == ' ' || e[-1] == '\t'); e--)
      e[-1] = 0;
    bool ok;
    const char *what;
    if (nlen == 6 && !strncmp(t + name, "factor", 6)) {
      ok = params_set_factor(&pr->p, value);
      what = "an integer from 1 to 1024 or auto, or one factor per dimension such as 4,4";
    } else if (nlen == 3 && !strncmp(t + name, "dim", 3)) {
      ok = params_set_dim(&pr->p, value);
      what = "x, y or z, or distinct dimensions such as x,y";
    } else if (nlen == 4 && !strncmp(t + name, "mode", 4)) {
      ok = params_set_mode(&pr->p, value);
      what = "block or thread";
    } else if (nlen == 7 && !strncmp(t + name, "mapping", 7)) {
      ok = params_set_mapping(&pr->p, value);
      what = "stride or consecutive";
    } else if (nlen == 6 && !strncmp(t + name, "layout", 6)) {
      ok = params_set_layout(&pr->p, value);
      what = "separate or interleaved";
    } else {
      error_at(name, "unknown clause '%.*s' in '#pragma tfuse coarsen'", (int)nlen, t + name);
      return false;
    }
    if (!ok) {
      error_at(vb, "invalid value '%s' in clause '%.*s': expected %s", value, (int)nlen, t + name, what);
      return false;
    }
    i = ve + 1;
  }
  return true;
}

static Params merge(const Params *pragma, const Params *cli) {
  Params p = {.factor = 2, .dim = 0, .mode = MODE_BLOCK, .mapping = MAP_STRIDE};
  const Params *layers[2] = {pragma, cli};
  for (int l = 0; l < 2; l++) {
    const Params *q = layers[l];
    if (!q)
      continue;
    if (q->set & OPT_SET_FACTOR) {
      p.factor = q->factor;
      p.nfactors = q->nfactors;
      memcpy(p.factors, q->factors, sizeof p.factors);
    }
    if (q->set & OPT_SET_DIM) {
      p.dim = q->dim;
      p.ndims = q->ndims;
      memcpy(p.dims, q->dims, sizeof p.dims);
    }
    if (q->set & OPT_SET_MODE)
      p.mode = q->mode;
    if (q->set & OPT_SET_MAPPING)
      p.mapping = q->mapping;
    if (q->set & OPT_SET_LAYOUT)
      p.layout = q->layout;
  }
  return p;
}

static Kernel *kernel_for(Vec *kernels, Node *fn) {
  for (int i = 0; i < kernels->len; i++) {
    Kernel *k = kernels->items[i];
    if (k->fn == fn)
      return k;
  }
  Kernel *k = arena_alloc(sizeof *k);
  k->fn = fn;
  k->sym = fn->sym;
  vec_push(kernels, k);
  return k;
}

static Kernel *kernel_of(Vec *kernels, Node *fn) {
  for (int i = 0; i < kernels->len; i++)
    if (((Kernel *)kernels->items[i])->fn == fn)
      return kernels->items[i];
  return NULL;
}

static bool same_params(const Kernel *a, const Kernel *b) {
  return a && b && a->p.factor == b->p.factor && a->p.mode == b->p.mode && a->p.dim == b->p.dim &&
         a->p.mapping == b->p.mapping && a->p.layout == b->p.layout && !memcmp(a->p.kd, b->p.kd, sizeof a->p.kd);
}

/* Block mode gives a kernel an extra first parameter. A template kernel
 * and its explicit specializations must keep one signature, so in block
 * mode they are coarsened together, with the same parameters. */
static void check_specializations(Unit *u, Vec *kernels) {
  for (int i = 0; i < u->functions.len; i++) {
    Node *spec = u->functions.items[i];
    if (!spec->sym->spec_of)
      continue;
    for (int j = 0; j < u->functions.len; j++) {
      Node *tmpl = u->functions.items[j];
      if (tmpl->sym != spec->sym->spec_of)
        continue;
      Kernel *ks = kernel_of(kernels, spec), *kt = kernel_of(kernels, tmpl);
      bool block = (ks && ks->p.factor > 1 && ks->p.mode == MODE_BLOCK) ||
                   (kt && kt->p.factor > 1 && kt->p.mode == MODE_BLOCK);
      if (block && !same_params(ks, kt))
        error_at(spec->loc, "explicit specialization of template kernel '%s' %s: in block mode both get an "
                            "extra parameter, so coarsen the template and its specializations alike",
                 spec->sym->name,
                 !ks ? "is not coarsened with its template" : !kt ? "is coarsened but its template is not"
                                                             : "is coarsened differently from its template");
    }
  }
}

void annotate_kernels(Unit *u, const Options *opt, Vec *kernels, Vec *matched) {
  const Source *src = u->src;
  const char *t = src->text;
  Vec pragmas = {0};

  for (int l = 0; l < src->nlines; l++) {
    unsigned b = src->line_start[l];
    unsigned eol = l + 1 < src->nlines ? src->line_start[l + 1] - 1 : (unsigned)src->len;
    unsigned i = b;
    while (i < eol && (t[i] == ' ' || t[i] == '\t'))
      i++;
    if (i >= eol || t[i] != '#')
      continue;
    unsigned j = i + 1;
    while (j < eol && (t[j] == ' ' || t[j] == '\t'))
      j++;
    if (!is_word(t + j, "pragma", 6))
      continue;
    j += 6;
    while (j < eol && (t[j] == ' ' || t[j] == '\t'))
      j++;
    if (!is_word(t + j, "tfuse", 5) || unit_is_skipped(u, b))
      continue; /* not a tfuse pragma, or in a branch the preprocessor skipped */
    Pragma *pr = arena_alloc(sizeof *pr);
    pr->off = b;
    pr->len = eol - b;
    if (parse_pragma(src, i, eol, pr))
      vec_push(&pragmas, pr);
  }

  /* Each pragma belongs to the function that starts right after its line. */
  for (int i = 0; i < pragmas.len; i++) {
    Pragma *pr = pragmas.items[i];
    unsigned next = source_skip_space(src, pr->off + pr->len);
    Node *fn = NULL;
    for (int j = 0; j < u->functions.len; j++) {
      Node *f = u->functions.items[j];
      if (f->begin == next)
        fn = f;
    }
    if (!fn) {
      error_at(pr->off, "'#pragma tfuse coarsen' must be followed by a __global__ function definition");
      continue;
    }
    if (!fn->sym->is_global_fn) {
      error_at(fn->loc, "'#pragma tfuse coarsen' applies to __global__ kernels; '%s' is not one", fn->sym->name);
      continue;
    }
    Kernel *k = kernel_for(kernels, fn);
    k->annotated = true;
    k->pragma_off = pr->off;
    k->pragma_len = pr->len;
    k->p = merge(&pr->p, &opt->cli);
    const char *bad = params_resolve(&k->p);
    if (bad)
      error_at(pr->off, "kernel '%s': %s", fn->sym->name, bad);
  }

  /* -all-kernels: every kernel defined in the project's files, with the
   * command line's parameters where no pragma gives its own. */
  for (int j = 0; opt->all_kernels && j < u->functions.len; j++) {
    Node *f = u->functions.items[j];
    if (!f->sym->is_global_fn || kernel_of(kernels, f))
      continue;
    Kernel *k = kernel_for(kernels, f);
    k->p = merge(NULL, &opt->cli);
    const char *bad = params_resolve(&k->p);
    if (bad)
      error_plain("kernel '%s': %s", f->sym->name, bad);
  }

  for (int i = 0; i < opt->kernels.len; i++) {
    const char *name = opt->kernels.items[i];
    bool found = false;
    for (int j = 0; j < u->functions.len; j++) {
      Node *f = u->functions.items[j];
      if (f->sym->is_global_fn && !strcmp(f->sym->name, name)) {
        Kernel *k = kernel_for(kernels, f);
        if (!k->annotated) {
          k->p = merge(NULL, &opt->cli);
          const char *bad = params_resolve(&k->p);
          if (bad)
            error_plain("kernel '%s': %s", name, bad);
        }
        found = true;
      }
    }
    if (found && opt->group_run)
      vec_push(matched, (void *)name);
    else if (!found && !opt->group_run) {
      /* One file: a misspelt name is an error.  Several: a name may be
       * meant for some of them only, so it is a warning. */
      if (opt->inputs.len > 1 || (opt->compdb_dir && !opt->inputs.len))
        warning_plain("no __global__ function named '%s' is defined in %s", name, src->path);
      else
        error_plain("no __global__ function named '%s' is defined in '%s'", name, src->path);
    }
  }
  vec_free(&pragmas);
  check_specializations(u, kernels);
}
