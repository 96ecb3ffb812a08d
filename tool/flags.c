/* flags: what the parser is told for one file, so that it finds every
 * header and sees every macro that the file's compiler does.
 *
 * Contract: flags_normalize reads a compiler command line (nvcc's or
 * clang's/gcc's spellings; the compiler itself and the input left out) into
 * canonical flags with absolute paths; flags_parser_args turns those into
 * clang arguments for the parse.  Nothing here fails: a missing or unwilling
 * nvcc only means a plainer answer (and a warning when nvcc rejects flags).
 *
 * nvcc is asked, not imitated.  For an nvcc command line, tfuse runs
 * `<cuda>/bin/nvcc --dryrun FLAGS -c tfuse-probe.cu` once (the answer is
 * cached by nvcc's path, size and mtime and the flags) and reads:
 *   - `#$ INCLUDES=` and `#$ SYSTEM_INCLUDES=`: nvcc's implicit include
 *     directories (CUDA 13: include/cccl with cub, thrust, cuda/std), given
 *     to clang as -isystem (clang already searches <cuda>/include itself);
 *   - the host preprocessing line (`HOSTCC -E ... -D__CUDACC__ ...` without
 *     -D__CUDA_ARCH__): every -D and -U, in order (__CUDACC__,
 *     __CUDACC_VER_MAJOR__ and the others, what flags such as
 *     --extended-lambda or -G define, but not __NVCC__: see clang_owns),
 *     the user's -I/-isystem after nvcc's splitting of comma lists,
 *     -Xcompiler's -D/-I, and -include files other than cuda_runtime.h
 *     (clang's CUDA wrapper includes that one);
 *   - the cudafe++ line: the C++ dialect (`--c++17` -> -std=c++17) and
 *     relocatable device code (`--device-c`, `--partial-link`: -rdc=true,
 *     -dc, -dlto, -ewp) -> -fgpu-rdc, which device-side launches need.
 * Flags that only matter to code generation, linking or output
 * (-arch, -O3, -o, -c, -lcublas...) reach nvcc's dry run but leave no trace
 * on those lines, so they are dropped without a word.
 * The host compiler that the host line names is asked for its search list
 * (`HOSTCC -E -x c++ - -v`, cached as nvcc's answer is); its folders come
 * last (-idirafter), for the headers only it has (gcc's omp.h).
 *
 * Without nvcc (or when nvcc rejects the flags) tfuse reads -I, -isystem,
 * -D, -U, -include, -std and the relocatable-code flags itself, and adds
 * <cuda>/include/cccl.  A clang/gcc command line (compilation database
 * entries) is read the same way (-fgpu-rdc too), with nvcc's implicit
 * include directories but not its macros or its host compiler's folders:
 * clang compiles that file. */
#include "tfuse.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- reading command lines ---- */

struct Flag {
  const char *spelled;        /* the option as written (for nvcc when tfuse does not know it) */
  const char *value;          /* its value, a path made absolute */
  const struct OptSpec *spec; /* NULL: an option tfuse does not know */
};

/* What an option is to tfuse. */
typedef enum {
  F_INC,    /* include directories: -I, -isystem, -iquote, -idirafter */
  F_PRE,    /* pre-included files: -include */
  F_MACRO,  /* -D, -U */
  F_STD,    /* -std */
  F_RDC,    /* relocatable device code on or off (nvcc: for the dry run too) */
  F_RSP,    /* --options-file: more options, read from files */
  F_DROP,   /* output, input, phase and link options: not for the dry run either */
  F_PASS,   /* anything else nvcc knows: for the dry run (it may define macros) */
} Role;

typedef struct OptSpec {
  const char *name;  /* long name (nvcc: used after `--`) */
  const char *alias; /* short name, or NULL */
  bool value;        /* takes a value (glued with `=`, or the next argument) */
  Role role;
  const char *clang; /* F_INC, F_PRE, F_MACRO: the clang spelling */
} OptSpec;

/* nvcc 13's options that take a value (from `nvcc --help`), the ones tfuse
 * reads, and the output/phase options the dry run must not see. */
static const OptSpec nvcc_opts[] = {
    {"include-path", "I", true, F_INC, "-I"},
    {"system-include", "isystem", true, F_INC, "-isystem"},
    {"pre-include", "include", true, F_PRE, "-include"},
    {"define-macro", "D", true, F_MACRO, "-D"},
    {"undefine-macro", "U", true, F_MACRO, "-U"},
    {"std", NULL, true, F_STD, NULL},
    {"x", NULL, true, F_DROP, NULL}, /* the probe is a .cu file */
    {"output-file", "o", true, F_DROP, NULL},
    {"library", "l", true, F_DROP, NULL},
    {"library-path", "L", true, F_DROP, NULL},
    {"output-directory", "odir", true, F_DROP, NULL},
    {"compiler-bindir", "ccbin", true, F_DROP, NULL},
    {"archiver-binary", "arbin", true, F_DROP, NULL},
    {"keep-dir", NULL, true, F_DROP, NULL},
    {"time", NULL, true, F_DROP, NULL},
    {"run-args", NULL, true, F_DROP, NULL},
    {"dependency-output", "MF", true, F_DROP, NULL},
    {"dependency-target-name", "MT", true, F_DROP, NULL},
    {"fdevice-time-trace", NULL, true, F_DROP, NULL},
    {"threads", "t", true, F_DROP, NULL},
    {"split-compile", NULL, true, F_DROP, NULL},
    {"split-compile-extended", NULL, true, F_DROP, NULL},
    {"options-file", "optf", true, F_RSP, NULL},
    {"input-drive-prefix", "idp", true, F_DROP, NULL},
    {"dependency-drive-prefix", "ddp", true, F_DROP, NULL},
    {"drive-prefix", "dp", true, F_DROP, NULL},
    {"cudart", NULL, true, F_PASS, NULL},
    {"cudadevrt", NULL, true, F_PASS, NULL},
    {"libdevice-directory", "ldir", true, F_PASS, NULL},
    {"target-directory", "target-dir", true, F_PASS, NULL},
    {"optimization-info", "opt-info", true, F_PASS, NULL},
    {"optimize", "O", true, F_PASS, NULL},
    {"Ofast-compile", "Ofc", true, F_PASS, NULL},
    {"dopt", NULL, true, F_PASS, NULL},
    {"ftemplate-backtrace-limit", NULL, true, F_PASS, NULL},
    {"ftemplate-depth", NULL, true, F_PASS, NULL},
    {"machine", "m", true, F_PASS, NULL},
    {"compiler-options", "Xcompiler", true, F_PASS, NULL},
    {"linker-options", "Xlinker", true, F_PASS, NULL},
    {"archive-options", "Xarchive", true, F_PASS, NULL},
    {"ptxas-options", "Xptxas", true, F_PASS, NULL},
    {"nvlink-options", "Xnvlink", true, F_PASS, NULL},
    {"Xcudafe", NULL, true, F_PASS, NULL},
    {"static-global-template-stub", NULL, true, F_PASS, NULL},
    {"device-entity-has-hidden-visibility", NULL, true, F_PASS, NULL},
    {"gpu-architecture", "arch", true, F_PASS, NULL},
    {"gpu-code", "code", true, F_PASS, NULL},
    {"generate-code", "gencode", true, F_PASS, NULL},
    {"relocatable-device-code", "rdc", true, F_RDC, NULL},
    {"device-c", "dc", false, F_RDC, "-fgpu-rdc"},
    {"device-w", "dw", false, F_RDC, "-fno-gpu-rdc"},
    {"dlink-time-opt", "dlto", false, F_RDC, "-fgpu-rdc"},
    {"lto", NULL, false, F_RDC, "-fgpu-rdc"},
    {"extensible-whole-program", "ewp", false, F_RDC, "-fgpu-rdc"},
    {"entries", "e", true, F_PASS, NULL},
    {"maxrregcount", NULL, true, F_PASS, NULL},
    {"ftz", NULL, true, F_PASS, NULL},
    {"prec-div", NULL, true, F_PASS, NULL},
    {"prec-sqrt", NULL, true, F_PASS, NULL},
    {"fmad", NULL, true, F_PASS, NULL},
    {"default-stream", NULL, true, F_PASS, NULL},
    {"Werror", NULL, true, F_PASS, NULL},
    {"diag-error", NULL, true, F_PASS, NULL},
    {"diag-suppress", NULL, true, F_PASS, NULL},
    {"diag-warn", NULL, true, F_PASS, NULL},
    {"host-linker-script", "hls", true, F_PASS, NULL},
    {"brief-diagnostics", "brief-diag", true, F_PASS, NULL},
    {"jump-table-density", "jtd", true, F_PASS, NULL},
    {"device-stack-protector", NULL, true, F_PASS, NULL},
    {"compress-mode", NULL, true, F_PASS, NULL},
    {"frandom-seed", NULL, true, F_PASS, NULL},
    {"sanitize", NULL, true, F_PASS, NULL},
    /* Phases and outputs without a value. */
    {"compile", "c", false, F_DROP, NULL},
    {"device-link", "dlink", false, F_DROP, NULL},
    {"link", NULL, false, F_DROP, NULL},
    {"lib", NULL, false, F_DROP, NULL},
    {"run", NULL, false, F_DROP, NULL},
    {"preprocess", "E", false, F_DROP, NULL},
    {"generate-dependencies", "M", false, F_DROP, NULL},
    {"generate-nonsystem-dependencies", "MM", false, F_DROP, NULL},
    {"generate-dependencies-with-compile", "MD", false, F_DROP, NULL},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false, F_DROP, NULL},
    {"generate-dependency-targets", "MP", false, F_DROP, NULL},
    {"cuda", NULL, false, F_DROP, NULL},
    {"cubin", NULL, false, F_DROP, NULL},
    {"fatbin", NULL, false, F_DROP, NULL},
    {"ptx", NULL, false, F_DROP, NULL},
    {"optix-ir", NULL, false, F_DROP, NULL},
    {"ltoir", NULL, false, F_DROP, NULL},
    {"dryrun", NULL, false, F_DROP, NULL},
    {"verbose", "v", false, F_DROP, NULL},
    {"keep", NULL, false, F_DROP, NULL},
    {"save-temps", NULL, false, F_DROP, NULL},
    {"clean-targets", "clean", false, F_DROP, NULL},
    {"version", "V", false, F_DROP, NULL},
    {"help", "h", false, F_DROP, NULL},
    {"list-gpu-code", "code-ls", false, F_DROP, NULL},
    {"list-gpu-arch", "arch-ls", false, F_DROP, NULL},
    {"generate-line-info", "lineinfo", false, F_PASS, NULL},
};

/* clang's and gcc's: what tfuse reads, and the options whose value is the
 * next argument (dropped with it).  Anything else is dropped alone. */
static const OptSpec clang_opts[] = {
    {"I", NULL, true, F_INC, "-I"},
    {"isystem", NULL, true, F_INC, "-isystem"},
    {"iquote", NULL, true, F_INC, "-iquote"},
    {"idirafter", NULL, true, F_INC, "-idirafter"},
    {"include", NULL, true, F_PRE, "-include"},
    {"imacros", NULL, true, F_PRE, "-imacros"},
    {"D", NULL, true, F_MACRO, "-D"},
    {"U", NULL, true, F_MACRO, "-U"},
    {"std", NULL, true, F_STD, NULL},
    {"fgpu-rdc", NULL, false, F_RDC, "-fgpu-rdc"},
    {"fno-gpu-rdc", NULL, false, F_RDC, "-fno-gpu-rdc"},
    {"o", NULL, true, F_DROP, NULL},
    {"x", NULL, true, F_DROP, NULL},
    {"MF", NULL, true, F_DROP, NULL},
    {"MT", NULL, true, F_DROP, NULL},
    {"MQ", NULL, true, F_DROP, NULL},
    {"Xclang", NULL, true, F_DROP, NULL},
    {"Xlinker", NULL, true, F_DROP, NULL},
    {"Xassembler", NULL, true, F_DROP, NULL},
    {"Xpreprocessor", NULL, true, F_DROP, NULL},
    {"Xcuda-ptxas", NULL, true, F_DROP, NULL},
    {"Xcuda-fatbinary", NULL, true, F_DROP, NULL},
    {"target", NULL, true, F_DROP, NULL},
    {"arch", NULL, true, F_DROP, NULL},
    {"L", NULL, true, F_DROP, NULL},
    {"l", NULL, true, F_DROP, NULL},
    {"isysroot", NULL, true, F_DROP, NULL},
    {"include-pch", NULL, true, F_DROP, NULL},
    {"gcc-toolchain", NULL, true, F_DROP, NULL},
};

/* Options that may have their value glued on (`-Ipath`, `-DX=1`, `-O3`). */
static const char *glued[] = {"I", "D", "U", "L", "l", "O", "isystem", "iquote", "idirafter"};

static const OptSpec *find_opt(Compiler cc, const char *name) {
  const OptSpec *t = cc == CC_NVCC ? nvcc_opts : clang_opts;
  size_t n = cc == CC_NVCC ? sizeof nvcc_opts / sizeof *nvcc_opts : sizeof clang_opts / sizeof *clang_opts;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(t[i].name, name) || (t[i].alias && !strcmp(t[i].alias, name)))
      return &t[i];
  return NULL;
}

static const char *abs_in(const char *dir, const char *p) {
  if (!dir || !*p || p[0] == '/')
    return p;
  return arena_printf("%s/%s", dir, p);
}

/* A pre-included file is looked up in the compiler's folder first. */
static const char *abs_pre(const char *dir, const char *p) {
  const char *a = abs_in(dir, p);
  return access(a, R_OK) == 0 ? a : p;
}

/* Splits nvcc's comma lists as nvcc does (naively, outside quotes). */
static void split_list(const char *v, Vec *out) {
  const char *start = v;
  for (const char *p = v;; p++) {
    if (*p == ',' || !*p) {
      if (p > start)
        vec_push(out, arena_strndup(start, (size_t)(p - start)));
      if (!*p)
        break;
      start = p + 1;
    }
  }
}

static void normalize(Compiler cc, char *const *argv, int argc, const char *dir, int depth, Vec *out);
static void shell_words(const char *s, Vec *out);

/* The options of a response file (clang's @FILE, nvcc's --options-file),
 * read as the command's own; CMake puts include folders there. */
static void read_options_file(Compiler cc, const char *path, const char *dir, int depth, Vec *out) {
  Source f = {0};
  FILE *probe = depth < 8 ? fopen(path, "rb") : NULL;
  if (!probe) {
    warning_plain("cannot read the options file '%s'; its options are left out", path);
    return;
  }
  fclose(probe);
  if (!source_load(&f, path))
    return;
  Vec words = {0};
  for (int l = 0; l < f.nlines; l++) {
    unsigned e = l + 1 < f.nlines ? f.line_start[l + 1] : (unsigned)f.len;
    shell_words(arena_strndup(f.text + f.line_start[l], e - f.line_start[l]), &words);
  }
  normalize(cc, (char *const *)words.items, words.len, dir, depth + 1, out);
  vec_free(&words);
}

void flags_normalize(Compiler cc, char *const *argv, int argc, const char *dir, Vec *out) {
  char cwd[PATH_MAX];
  if (!dir && getcwd(cwd, sizeof cwd))
    dir = arena_strdup(cwd); /* paths of the command line: from here, whatever reads them later */
  normalize(cc, argv, argc, dir, 0, out);
}

static void normalize(Compiler cc, char *const *argv, int argc, const char *dir, int depth, Vec *out) {
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (cc == CC_CLANG && a[0] == '@' && a[1]) {
      read_options_file(cc, abs_in(dir, a + 1), dir, depth, out);
      continue;
    }
    if (a[0] != '-' || !a[1])
      continue; /* an input file */
    const char *name = a + 1 + (a[1] == '-');
    const char *eq = strchr(name, '=');
    char *base = eq ? arena_strndup(name, (size_t)(eq - name)) : (char *)name;
    const char *value = eq ? eq + 1 : NULL;
    const OptSpec *o = find_opt(cc, base);
    if (!o) {
      /* A glued value: -Ipath, -DX, -O3. */
      for (size_t j = 0; j < sizeof glued / sizeof *glued && !o; j++) {
        size_t n = strlen(glued[j]);
        if (a[1] != '-' && !strncmp(a + 1, glued[j], n) && a[1 + n]) {
          const OptSpec *g = find_opt(cc, glued[j]);
          if (g && g->value) {
            o = g;
            value = a + 1 + n;
          }
        }
      }
    }
    if (o && o->value && !value) {
      if (i + 1 >= argc)
        continue; /* a value missing at the end: nothing to read */
      value = argv[++i];
    }
    Flag *f = arena_alloc(sizeof *f);
    f->spelled = a;
    f->value = value;
    f->spec = o;
    if (!o) {
      if (cc == CC_CLANG)
        continue; /* clang's own business */
      vec_push(out, f); /* nvcc may know it; the dry run tells */
      continue;
    }
    if (o->role == F_DROP)
      continue;
    if (o->role == F_RSP) {
      Vec files = {0};
      split_list(value, &files);
      for (int j = 0; j < files.len; j++)
        read_options_file(cc, abs_in(dir, files.items[j]), dir, depth, out);
      vec_free(&files);
      continue;
    }
    if (o->role == F_INC || o->role == F_PRE || o->role == F_MACRO) {
      /* One flag per list item, paths absolute. */
      Vec items = {0};
      if (cc == CC_NVCC)
        split_list(value, &items);
      else
        vec_push(&items, (void *)value);
      for (int j = 0; j < items.len; j++) {
        Flag *g = arena_alloc(sizeof *g);
        *g = *f;
        const char *v = items.items[j];
        g->value = o->role == F_INC ? abs_in(dir, v) : o->role == F_PRE ? abs_pre(dir, v) : v;
        vec_push(out, g);
      }
      vec_free(&items);
      continue;
    }
    vec_push(out, f);
  }
}

/* ---- asking nvcc ---- */

/* Runs argv, returns its standard output and error together, and its exit
 * status in *status (-1 if it did not run). */
static char *run_capture(char *const *argv, int *status) {
  *status = -1;
  int fds[2];
  if (pipe(fds) != 0)
    return NULL;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  if (pid == 0) {
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0)
      dup2(null, 0);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    execv(argv[0], argv);
    _exit(127);
  }
  close(fds[1]);
  Buf b = {0};
  char chunk[4096];
  for (;;) {
    ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    buf_add(&b, chunk, (size_t)n);
  }
  close(fds[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  char *r = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  return r;
}

/* Splits a line of nvcc's dry run into words as the shell would. */
static void shell_words(const char *s, Vec *out) {
  for (;;) {
    while (*s == ' ' || *s == '\t')
      s++;
    if (!*s || *s == '\n')
      return;
    Buf w = {0};
    buf_add(&w, "", 0);
    while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
      if (*s == '"') {
        for (s++; *s && *s != '"'; s++) {
          if (*s == '\\' && (s[1] == '"' || s[1] == '\\' || s[1] == '$' || s[1] == '`'))
            s++;
          buf_add(&w, s, 1);
        }
        if (*s)
          s++;
      } else if (*s == '\'') {
        const char *e = strchr(s + 1, '\'');
        size_t n = e ? (size_t)(e - s - 1) : strlen(s + 1);
        buf_add(&w, s + 1, n);
        s += n + 1 + (e != NULL);
      } else {
        if (*s == '\\' && s[1])
          s++;
        buf_add(&w, s, 1);
        s++;
      }
    }
    vec_push(out, arena_strdup(w.data));
    buf_free(&w);
  }
}

/* The lines of the dry run tfuse reads, "ok\n" first; or "fail\n" and
 * nvcc's complaint; NULL if nvcc did not run. */
static char *dryrun_answer(const char *nvcc, Vec *flags) {
  char **argv = arena_alloc(sizeof(char *) * (size_t)(flags->len + 6));
  int n = 0;
  argv[n++] = (char *)nvcc;
  argv[n++] = "--dryrun";
  for (int i = 0; i < flags->len; i++)
    argv[n++] = flags->items[i];
  argv[n++] = "-c";
  argv[n++] = "tfuse-probe.cu";
  argv[n] = NULL;
  int status;
  char *text = run_capture(argv, &status);
  if (!text || status == 127 || status < 0)
    return NULL;
  Buf b = {0};
  bool host = false, fe = false;
  for (char *line = text; *line;) {
    char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    char *l = arena_strndup(line, len);
    bool keep = false;
    if (!strncmp(l, "#$ INCLUDES=", 12) || !strncmp(l, "#$ SYSTEM_INCLUDES=", 19))
      keep = true;
    else if (!host && !strncmp(l, "#$ ", 3) && strstr(l, " -E ") && strstr(l, "-D__CUDACC__") &&
             !strstr(l, "-D__CUDA_ARCH__="))
      keep = host = true;
    else if (!fe && strstr(l, "cudafe++ "))
      keep = fe = true;
    if (keep)
      buf_printf(&b, "%s\n", l);
    line += len + (nl != NULL);
  }
  char *r;
  if (status != 0 || !host) {
    /* nvcc's complaint: its `nvcc fatal` line, else its last line. */
    const char *msg = strstr(text, "fatal");
    const char *start = msg ? msg : text;
    if (msg)
      while (start > text && start[-1] != '\n')
        start--;
    else
      for (const char *p = text; *p; p++)
        if (*p == '\n' && p[1])
          start = p + 1;
    size_t len = strcspn(start, "\n");
    r = arena_printf("fail\n%.*s\n", (int)len, start);
  } else {
    r = arena_printf("ok\n%s", b.data);
  }
  buf_free(&b);
  return r;
}

/* An answer of `prog` (asked by `ask` with `words`), from the cache when
 * the program has not changed: the cache file is named by `kind` and a
 * hash of the program's real path, size and mtime, the environment
 * variables `env` and the words.  An answer is "ok\n..." or "fail\n...";
 * NULL: the program did not run. */
static char *cached_answer(const char *prog, const char *kind, const char *const *env, size_t nenv, Vec *words,
                           char *(*ask)(const char *prog, Vec *words)) {
  struct stat st;
  if (stat(prog, &st) != 0 || access(prog, X_OK) != 0)
    return NULL;
  char real[PATH_MAX];
  size_t h = str_hash(realpath(prog, real) ? real : prog);
  h = h * 31 + (size_t)st.st_mtime;
  h = h * 31 + (size_t)st.st_size;
  for (size_t i = 0; i < nenv; i++)
    h = h * 31 + str_hash(getenv(env[i]) ? getenv(env[i]) : "");
  for (int i = 0; i < words->len; i++)
    h = h * 31 + str_hash(words->items[i]);
  const char *dir = cache_dir();
  const char *path = dir ? arena_printf("%s/%s-%016zx.txt", dir, kind, h) : NULL;
  if (path) {
    FILE *f = fopen(path, "rb");
    if (f) {
      Buf b = {0};
      char chunk[4096];
      size_t n;
      while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(&b, chunk, n);
      fclose(f);
      char *r = arena_strdup(b.data ? b.data : "");
      buf_free(&b);
      if (!strncmp(r, "ok\n", 3) || !strncmp(r, "fail\n", 5))
        return r;
    }
  }
  char *r = ask(prog, words);
  if (r && path) {
    const char *tmp = arena_printf("%s.%d.tmp", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fputs(r, f) >= 0;
    if (f)
      ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
      unlink(tmp);
  }
  return r;
}

/* The dry run's answer, from the cache when nvcc has not changed. */
static char *nvcc_answer(const char *nvcc, Vec *flags) {
  static const char *const env[] = {"NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN"};
  return cached_answer(nvcc, "nvcc", env, sizeof env / sizeof *env, flags, dryrun_answer);
}

/* ---- asking the host compiler ---- */

/* The host compiler's #include <...> search list (`HOSTCC -E -x c++ - -v`),
 * "ok\n" and one folder a line, real paths; "fail\n" when it has none. */
static char *search_list_answer(const char *cc, Vec *words) {
  (void)words;
  char *argv[] = {(char *)cc, "-E", "-x", "c++", "-", "-v", NULL};
  int status;
  char *text = run_capture(argv, &status);
  if (!text || status < 0 || status == 127)
    return NULL;
  Buf b = {0};
  buf_printf(&b, "ok\n");
  const char *l = strstr(text, "#include <...> search starts here:");
  bool any = false;
  /* l: the end of a line; the folders are the lines that start with ' '. */
  for (l = l ? strchr(l, '\n') : NULL; l && l[1] == ' ';) {
    l += 2;
    size_t len = strcspn(l, "\n");
    char real[PATH_MAX];
    if (realpath(arena_strndup(l, len), real)) {
      buf_printf(&b, "%s\n", real);
      any = true;
    }
    l = l[len] ? l + len : NULL;
  }
  char *r = arena_strdup(any && status == 0 ? b.data : "fail\n");
  buf_free(&b);
  return r;
}

/* The program a command names: itself when it has a slash, else the first
 * executable of that name on PATH; NULL if none. */
static const char *find_program(const char *name) {
  if (strchr(name, '/'))
    return name;
  const char *path = getenv("PATH");
  for (const char *p = path; p && *p;) {
    size_t n = strcspn(p, ":");
    const char *cand = arena_printf("%.*s/%s", (int)n, n ? p : ".", name);
    if (access(cand, X_OK) == 0)
      return cand;
    p += n + (p[n] == ':');
  }
  return NULL;
}

/* ---- the parser's arguments ---- */

static bool same_dir(const char *a, const char *b) {
  struct stat x, y;
  return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static bool in_list(Vec *v, const char *s) {
  for (int i = 0; i < v->len; i++)
    if (!strcmp(v->items[i], s))
      return true;
  return false;
}

/* The line of `answer` starting with `prefix`, split into words, or false. */
static bool answer_line(const char *answer, const char *prefix, Vec *words) {
  for (const char *l = answer; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    if (!strncmp(l, prefix, strlen(prefix)) && strlen(prefix) <= len) {
      shell_words(arena_strndup(l + strlen(prefix), len - strlen(prefix)), words);
      return true;
    }
    l = nl ? nl + 1 : NULL;
  }
  return false;
}

/* -I/-isystem values of nvcc's INCLUDES and SYSTEM_INCLUDES lines. */
static void implicit_dirs(const char *answer, Vec *dirs) {
  const char *lines[] = {"#$ INCLUDES=", "#$ SYSTEM_INCLUDES="};
  for (int k = 0; k < 2; k++) {
    Vec w = {0};
    answer_line(answer, lines[k], &w);
    /* The line is VAR="words..." with its own quotes: unquote once more. */
    Vec words = {0};
    for (int i = 0; i < w.len; i++)
      shell_words(w.items[i], &words);
    for (int i = 0; i < words.len; i++) {
      const char *x = words.items[i];
      if (!strcmp(x, "-isystem") || !strcmp(x, "-I")) {
        if (i + 1 < words.len)
          vec_push(dirs, words.items[++i]);
      } else if (!strncmp(x, "-I", 2) && x[2]) {
        vec_push(dirs, (void *)(x + 2));
      } else if (!strncmp(x, "-isystem", 8) && x[8]) {
        vec_push(dirs, (void *)(x + 8));
      }
    }
    vec_free(&w);
    vec_free(&words);
  }
}

static void push_dir(Vec *out, const char *flag, const char *dir, const char *cuda_inc) {
  if (same_dir(dir, cuda_inc))
    return; /* clang searches <cuda>/include itself, after its CUDA wrappers */
  vec_push(out, (void *)flag);
  vec_push(out, (void *)dir);
}

/* Macros of nvcc's host line that the parse leaves to clang:
 * __CUDA_ARCH_LIST__ follows the architecture clang parses for, and
 * __NVCC__ would make CCCL (thrust, cub, cuda/std) take paths only nvcc
 * compiles: thrust's device_vector no longer parses under clang with it. */
static bool clang_owns(const char *def) {
  static const char *names[] = {"__CUDA_ARCH_LIST__", "__NVCC__"};
  size_t n = strcspn(def, "=");
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strlen(names[i]) == n && !strncmp(def, names[i], n))
      return true;
  return false;
}

/* Reads nvcc's answer: implicit directories, the host line's macros and
 * user directories, the dialect. */
static void args_from_answer(const char *answer, const char *cuda_inc, bool macros, Vec *out) {
  Vec implicit = {0};
  implicit_dirs(answer, &implicit);
  for (int i = 0; i < implicit.len; i++)
    push_dir(out, "-isystem", implicit.items[i], cuda_inc);
  if (!macros) {
    vec_free(&implicit);
    return;
  }
  for (const char *l = answer; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    char *line = arena_strndup(l, len);
    l = nl ? nl + 1 : NULL;
    if (!strncmp(line, "#$ INCLUDES=", 12) || !strncmp(line, "#$ SYSTEM_INCLUDES=", 19) || strncmp(line, "#$ ", 3))
      continue;
    Vec words = {0};
    shell_words(line + 3, &words);
    if (strstr(line, "cudafe++ ")) {
      bool rdc = false;
      for (int i = 0; i < words.len; i++) {
        const char *w = words.items[i];
        if (!strncmp(w, "--c++", 5))
          vec_push(out, arena_printf("-std=%s", w + 2));
        rdc |= !strcmp(w, "--device-c") || !strcmp(w, "--partial-link");
      }
      if (rdc)
        vec_push(out, "-fgpu-rdc");
      vec_free(&words);
      continue;
    }
    for (int i = 1; i < words.len; i++) {
      const char *x = words.items[i];
      const OptSpec *o = NULL;
      const char *v = NULL;
      for (size_t j = 0; j < sizeof clang_opts / sizeof *clang_opts && !o; j++) {
        const OptSpec *c = &clang_opts[j];
        if (c->role != F_INC && c->role != F_PRE && c->role != F_MACRO)
          continue;
        size_t n = strlen(c->name);
        if (x[0] == '-' && !strcmp(x + 1, c->name)) {
          o = c;
          v = i + 1 < words.len ? words.items[++i] : NULL;
        } else if (x[0] == '-' && !strncmp(x + 1, c->name, n) && x[1 + n] &&
                   (c->name[0] == 'I' || c->name[0] == 'D' || c->name[0] == 'U')) {
          o = c;
          v = x + 1 + n;
        }
      }
      if (!o || !v)
        continue;
      if (o->role == F_INC) {
        if (!in_list(&implicit, v))
          push_dir(out, o->clang, v, cuda_inc);
      } else if (o->role == F_PRE) {
        if (strcmp(v, "cuda_runtime.h")) {
          vec_push(out, (void *)o->clang);
          vec_push(out, (void *)v);
        }
      } else if (!clang_owns(v)) {
        vec_push(out, arena_printf("%s%s", o->clang, v));
      }
    }
    vec_free(&words);
  }
  vec_free(&implicit);
}

/* What tfuse reads itself: -I, -isystem, -D, -U, -include, -std, and
 * whether device code is relocatable (the last of -rdc, -dc, -dw, -dlto,
 * -ewp; clang's -fgpu-rdc, -fno-gpu-rdc). */
static void args_from_flags(Vec *flags, const char *cuda_inc, Vec *out) {
  bool rdc = false;
  for (int i = 0; i < flags->len; i++) {
    Flag *f = flags->items[i];
    if (!f->spec)
      continue;
    switch (f->spec->role) {
    case F_INC: push_dir(out, f->spec->clang, f->value, cuda_inc); break;
    case F_PRE:
      vec_push(out, (void *)f->spec->clang);
      vec_push(out, (void *)f->value);
      break;
    case F_MACRO: vec_push(out, arena_printf("%s%s", f->spec->clang, f->value)); break;
    case F_STD: vec_push(out, arena_printf("-std=%s", f->value)); break;
    case F_RDC: rdc = f->spec->clang ? !strcmp(f->spec->clang, "-fgpu-rdc") : !strcmp(f->value, "true"); break;
    default: break;
    }
  }
  if (rdc)
    vec_push(out, "-fgpu-rdc");
}

/* CUDA 13's CCCL folder, as nvcc adds it, when nvcc cannot be asked. */
static void fallback_dirs(const char *cuda_path, Vec *out) {
  const char *cccl = arena_printf("%s/include/cccl", cuda_path);
  if (access(cccl, R_OK) == 0) {
    vec_push(out, "-isystem");
    vec_push(out, (void *)cccl);
  }
}

/* The folders of nvcc's host compiler (the first word of the host line)
 * that clang does not search, such as gcc's own include folder with
 * omp.h: each folder of its search list as -idirafter, so that clang's
 * own headers come first and it drops the folders it searches already. */
static void host_compiler_dirs(const char *answer, Vec *out) {
  static const char *const env[] = {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH", "GCC_EXEC_PREFIX"};
  const char *hostcc = NULL;
  for (const char *l = answer; l && *l && !hostcc;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    char *line = arena_strndup(l, len);
    l = nl ? nl + 1 : NULL;
    if (strncmp(line, "#$ ", 3) || !strncmp(line, "#$ INCLUDES=", 12) || !strncmp(line, "#$ SYSTEM_INCLUDES=", 19) ||
        strstr(line, "cudafe++ "))
      continue;
    Vec words = {0};
    shell_words(line + 3, &words);
    if (words.len)
      hostcc = find_program(words.items[0]);
    vec_free(&words);
  }
  Vec none = {0};
  const char *list = hostcc ? cached_answer(hostcc, "hostcc", env, sizeof env / sizeof *env, &none, search_list_answer)
                            : NULL;
  if (!list || strncmp(list, "ok\n", 3))
    return;
  for (const char *l = list + 3; *l;) {
    size_t len = strcspn(l, "\n");
    vec_push(out, "-idirafter");
    vec_push(out, arena_strndup(l, len));
    l += len + (l[len] == '\n');
  }
}

void flags_parser_args(const char *cuda_path, Compiler cc, Vec *flags, Vec *out) {
  const char *nvcc = arena_printf("%s/bin/nvcc", cuda_path);
  const char *cuda_inc = arena_printf("%s/include", cuda_path);
  /* nvcc's dry run gets an nvcc command line's flags, spelled --name=value;
   * for a clang command line it is asked only for its directories. */
  Vec dry = {0}, none = {0};
  if (cc == CC_NVCC)
    for (int i = 0; i < flags->len; i++) {
      Flag *f = flags->items[i];
      if (!f->spec)
        vec_push(&dry, (void *)f->spelled);
      else if (f->value)
        vec_push(&dry, arena_printf("--%s=%s", f->spec->name, f->value));
      else
        vec_push(&dry, arena_printf("--%s", f->spec->name));
    }
  char *answer = nvcc_answer(nvcc, &dry);
  if (answer && !strncmp(answer, "ok\n", 3)) {
    args_from_answer(answer, cuda_inc, cc == CC_NVCC, out);
    if (cc == CC_CLANG)
      args_from_flags(flags, cuda_inc, out);
    else
      host_compiler_dirs(answer, out);
    vec_free(&dry);
    return;
  }
  if (answer && dry.len) {
    Buf b = {0};
    for (int i = 0; i < dry.len; i++)
      buf_printf(&b, "%s%s", i ? " " : "", (char *)dry.items[i]);
    char *msg = answer + 5;
    msg[strcspn(msg, "\n")] = 0;
    if (!strncmp(msg, "nvcc fatal", 10) && strchr(msg, ':')) /* "nvcc fatal   : Unknown option..." */
      msg = strchr(msg, ':') + 1 + (strchr(msg, ':')[1] == ' ');
    warning_plain("nvcc rejects the compiler flags '%s' (%s); tfuse reads -I, -isystem, -D, -U, -include and -std "
                  "from them itself", b.data, msg);
    buf_free(&b);
    answer = nvcc_answer(nvcc, &none);
  }
  bool asked = answer && !strncmp(answer, "ok\n", 3);
  if (asked)
    args_from_answer(answer, cuda_inc, cc == CC_NVCC, out);
  else
    fallback_dirs(cuda_path, out);
  args_from_flags(flags, cuda_inc, out);
  if (asked && cc == CC_NVCC)
    host_compiler_dirs(answer, out);
  vec_free(&dry);
}

void flags_include_paths(const Vec *flags, Vec *dirs, Vec *pre) {
  for (int i = 0; i < flags->len; i++) {
    const Flag *f = flags->items[i];
    if (f->spec && f->value && f->spec->role == F_INC)
      vec_push(dirs, (void *)f->value);
    else if (f->spec && f->value && f->spec->role == F_PRE)
      vec_push(pre, (void *)f->value);
  }
}

/* The text of a flag as the parser would see it: "-DX=1", "-I/abs". */
static const char *flag_text(const Flag *f) {
  if (f->spec && f->spec->clang)
    return arena_printf("%s%s", f->spec->clang, f->value ? f->value : "");
  return arena_printf("%s%s%s", f->spelled ? f->spelled : "", f->value ? "=" : "", f->value ? f->value : "");
}

/* Whether a flag can change what the parser reads: include folders,
 * pre-included files, macros, the dialect, and options nvcc may turn into
 * macros (the architecture). */
static bool parse_relevant(const Flag *f) {
  return !f->spec || f->spec->role == F_INC || f->spec->role == F_PRE || f->spec->role == F_MACRO ||
         f->spec->role == F_STD || f->spec->role == F_PASS || f->spec->role == F_RDC;
}

const char *flags_parse_difference(const Vec *a, const Vec *b) {
  int i = 0, j = 0;
  for (;;) {
    while (i < a->len && !parse_relevant(a->items[i]))
      i++;
    while (j < b->len && !parse_relevant(b->items[j]))
      j++;
    if (i >= a->len || j >= b->len)
      break;
    const char *x = flag_text(a->items[i]), *y = flag_text(b->items[j]);
    if (strcmp(x, y))
      return arena_printf("'%s' against '%s'", x, y);
    i++;
    j++;
  }
  if (i < a->len)
    return arena_printf("'%s' only in the first", flag_text(a->items[i]));
  if (j < b->len)
    return arena_printf("'%s' only in the second", flag_text(b->items[j]));
  return NULL;
}
