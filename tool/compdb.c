/* compdb: the recorded compile command of a file in
 * BUILD_DIR/compile_commands.json (`-p BUILD_DIR`, as clang tools do).
 * With parse.c, the only other file that uses libclang: its
 * compilation-database API.
 *
 * The command's flags are read by tool/flags.c, relative paths against the
 * command's directory: an nvcc command (the compiler's name contains "nvcc",
 * after a ccache-like launcher) as nvcc reads it, anything else as clang
 * does.  Outputs, code generation and host-compiler flags are the
 * compiler's business, not the parser's. */
#include "tfuse.h"

#include <clang-c/CXCompilationDatabase.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static bool is_launcher(const char *base) {
  return !strcmp(base, "ccache") || !strcmp(base, "sccache") || !strcmp(base, "distcc");
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Whether the command compiles CUDA: nvcc, a .cu file, or clang's -x cuda. */
static bool is_cuda(Compiler cc, const char *file, char **argv, unsigned n) {
  size_t len = strlen(file);
  if (cc == CC_NVCC || (len > 3 && !strcmp(file + len - 3, ".cu")))
    return true;
  for (unsigned i = 0; i < n; i++)
    if (!strcmp(argv[i], "-xcuda") || (!strcmp(argv[i], "-x") && i + 1 < n && !strcmp(argv[i + 1], "cuda")))
      return true;
  return false;
}

bool compdb_load(const char *dir, Vec *entries) {
  CXCompilationDatabase_Error err;
  /* libclang prints its own YAML and tooling errors; ours say it better. */
  fflush(stderr);
  int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0)
    dup2(devnull, 2);
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir, &err);
  if (saved >= 0) {
    dup2(saved, 2);
    close(saved);
  }
  if (devnull >= 0)
    close(devnull);
  if (err != CXCompilationDatabase_NoError || !db) {
    error_plain("cannot load a compilation database from '%s': compile_commands.json is missing or "
                "not valid JSON", dir);
    return false;
  }
  /* All entries, in order: a per-file query would infer a command for a
   * file the database does not list, and we want the file's own entry. */
  CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  for (unsigned i = 0; i < n; i++) {
    CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
    CXString fs = clang_CompileCommand_getFilename(c), ds = clang_CompileCommand_getDirectory(c);
    const char *cdir = arena_strdup(clang_getCString(ds));
    const char *f = clang_getCString(fs);
    const char *full = f[0] == '/' ? arena_strdup(f) : arena_printf("%s/%s", cdir, f);
    clang_disposeString(fs);
    clang_disposeString(ds);
    const char *real = path_real(full);
    if (!real)
      real = full;
    CompdbEntry *seen = NULL;
    for (int j = 0; j < entries->len && !seen; j++)
      if (!strcmp(((CompdbEntry *)entries->items[j])->file, real))
        seen = entries->items[j];
    unsigned nargs = clang_CompileCommand_getNumArgs(c);
    char **argv = arena_alloc(sizeof(char *) * (nargs + 1));
    for (unsigned k = 0; k < nargs; k++) {
      CXString a = clang_CompileCommand_getArg(c, k);
      argv[k] = arena_strdup(clang_getCString(a));
      clang_disposeString(a);
    }
    unsigned first = 0;
    while (first + 1 < nargs && is_launcher(base_name(argv[first])))
      first++;
    CompdbEntry *e = arena_alloc(sizeof *e);
    e->file = real;
    e->cc = first < nargs && strstr(base_name(argv[first]), "nvcc") ? CC_NVCC : CC_CLANG;
    e->cuda = is_cuda(e->cc, real, argv, nargs);
    if (first < nargs)
      flags_normalize(e->cc, argv + first + 1, (int)(nargs - first - 1), cdir, &e->flags);
    if (seen) {
      /* A file compiled twice (two targets, two configurations) with flags
       * the parser reads differently: each distinct set is kept, and the
       * file is rewritten only where every set gives the same text
       * (tool/schedule.c). */
      const char *d = flags_parse_difference(&seen->flags, &e->flags);
      for (int a = 0; d && a < seen->alts.len; a++)
        if (!flags_parse_difference(&((CompdbEntry *)seen->alts.items[a])->flags, &e->flags))
          d = NULL;
      if (d) {
        e->conflict = d;
        vec_push(&seen->alts, e);
      }
      continue;
    }
    vec_push(entries, e);
  }
  if (cmds)
    clang_CompileCommands_dispose(cmds);
  clang_CompilationDatabase_dispose(db);
  return true;
}
