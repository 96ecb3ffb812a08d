/* compdb: parser flags for the input from BUILD_DIR/compile_commands.json
 * (`-p BUILD_DIR`, as clang tools do).  With parse.c, the only other file
 * that uses libclang: its compilation-database API.
 *
 * Kept from the recorded command: -I, -isystem, -iquote, -include, -D, -U
 * and -std (nvcc and clang spell them alike); include paths are made
 * absolute against the command's directory.  Everything else (nvcc's
 * --generate-code, -o, -c, host-compiler flags) is the compiler's business,
 * not the parser's. */
#include "tfuse.h"

#include <clang-c/CXCompilationDatabase.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static const char *abs_path(const char *dir, const char *p) {
  if (p[0] == '/')
    return p;
  return arena_printf("%s/%s", dir, p);
}

/* Flags with the value in the next argument or glued on. */
static const char *path_flags[] = {"-I", "-isystem", "-iquote", "-include"};
static const char *value_flags[] = {"-D", "-U"};

bool compdb_load_args(const Options *opt, Vec *out) {
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
  const char *file = realpath(opt->input, resolved) ? resolved : opt->input;
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
    error_plain("'%s' has no entry in '%s/compile_commands.json'", opt->input, opt->compdb_dir);
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
  for (unsigned i = 1; i < nargs; i++) {
    CXString s = clang_CompileCommand_getArg(cmd, i);
    const char *a = arena_strdup(clang_getCString(s));
    clang_disposeString(s);
    const char *next = NULL;
    if (i + 1 < nargs) {
      CXString t = clang_CompileCommand_getArg(cmd, i + 1);
      next = arena_strdup(clang_getCString(t));
      clang_disposeString(t);
    }
    bool used = false;
    for (size_t j = 0; j < sizeof path_flags / sizeof *path_flags && !used; j++) {
      size_t fl = strlen(path_flags[j]);
      if (!strcmp(a, path_flags[j]) && next) {
        vec_push(out, (void *)path_flags[j]);
        vec_push(out, (void *)abs_path(dir, next));
        i++;
        used = true;
      } else if (!strncmp(a, path_flags[j], fl) && a[fl] && !(j == 0 && !strncmp(a, "-isystem", 8)) &&
                 !(j == 0 && !strncmp(a, "-iquote", 7)) && !(j == 0 && !strncmp(a, "-include", 8))) {
        vec_push(out, arena_printf("%s%s", path_flags[j], abs_path(dir, a + fl)));
        used = true;
      }
    }
    for (size_t j = 0; j < sizeof value_flags / sizeof *value_flags && !used; j++) {
      if (!strcmp(a, value_flags[j]) && next) {
        vec_push(out, arena_printf("%s%s", value_flags[j], next));
        i++;
        used = true;
      } else if (!strncmp(a, value_flags[j], 2) && a[2]) {
        vec_push(out, (void *)a);
        used = true;
      }
    }
    if (!used && !strncmp(a, "-std=", 5))
      vec_push(out, (void *)a);
  }
  clang_CompileCommands_dispose(cmds);
  clang_CompilationDatabase_dispose(db);
  return true;
}
