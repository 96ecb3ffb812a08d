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
#include <limits.h>
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

bool compdb_flags(const Options *opt, const char *input, Compiler *cc, Vec *out) {
  CXCompilationDatabase_Error err;
  /* libclang prints its own YAML and tooling errors; ours say it better. */
  fflush(stderr);
  int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0)
    dup2(devnull, 2);
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(opt->compdb_dir, &err);
  if (saved >= 0) {
    dup2(saved, 2);
    close(saved);
  }
  if (devnull >= 0)
    close(devnull);
  if (err != CXCompilationDatabase_NoError || !db) {
    error_plain("cannot load a compilation database from '%s': compile_commands.json is missing or "
                "not valid JSON", opt->compdb_dir);
    return false;
  }
  char resolved[PATH_MAX];
  const char *file = realpath(input, resolved) ? resolved : input;
  /* Search all entries: a per-file query would infer a command for a file
   * the database does not list, and we want the file's own entry. */
  CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  bool listed = false;
  unsigned which = 0;
  for (unsigned i = 0; i < n && !listed; i++) {
    which = i;
    CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
    CXString fs = clang_CompileCommand_getFilename(c), ds = clang_CompileCommand_getDirectory(c);
    const char *f = clang_getCString(fs);
    char buf[PATH_MAX];
    const char *full = f[0] == '/' ? f : arena_printf("%s/%s", clang_getCString(ds), f);
    listed = !strcmp(realpath(full, buf) ? buf : full, file);
    clang_disposeString(fs);
    clang_disposeString(ds);
  }
  if (!listed) {
    error_plain("'%s' has no entry in '%s/compile_commands.json'", input, opt->compdb_dir);
    if (cmds)
      clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    return false;
  }
  CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, which);
  CXString dirs = clang_CompileCommand_getDirectory(cmd);
  const char *dir = arena_strdup(clang_getCString(dirs));
  clang_disposeString(dirs);
  unsigned nargs = clang_CompileCommand_getNumArgs(cmd);
  char **argv = arena_alloc(sizeof(char *) * (nargs + 1));
  for (unsigned i = 0; i < nargs; i++) {
    CXString a = clang_CompileCommand_getArg(cmd, i);
    argv[i] = arena_strdup(clang_getCString(a));
    clang_disposeString(a);
  }
  unsigned first = 0;
  while (first + 1 < nargs && is_launcher(base_name(argv[first])))
    first++;
  *cc = first < nargs && strstr(base_name(argv[first]), "nvcc") ? CC_NVCC : CC_CLANG;
  if (first < nargs)
    flags_normalize(*cc, argv + first + 1, (int)(nargs - first - 1), dir, out);
  clang_CompileCommands_dispose(cmds);
  clang_CompilationDatabase_dispose(db);
  return true;
}
