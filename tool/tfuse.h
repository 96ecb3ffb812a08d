/* tfuse driver: options, the compilation database, the project's
 * files, the schedule of groups and main.  The driver calls the passes
 * (passes/passes.h) and support (support/support.h); nothing below calls
 * it.  One section per file, as in chibicc. */
#ifndef TFUSE_H
#define TFUSE_H

#include "passes.h"

/* ===================== tool/options.c ===================== */

/* Returns 0 to go on, or an exit status (0 for --help, 2 for misuse). */
int options_parse(Options *opt, int argc, char **argv, bool *done);

/* ===================== tool/flags.c ===================== */

/* Reads compiler options (no compiler, no input) into Flag*s appended to
 * out; relative paths are taken against dir (NULL: the current folder). */
void flags_normalize(Compiler cc, char *const *argv, int argc, const char *dir, Vec *out);
/* Appends the parser's (clang's) arguments for those flags: the include
 * folders and macros the compiler would use, nvcc's asked of nvcc. */
void flags_parser_args(const char *cuda_path, Compiler cc, Vec *flags, Vec *out);
/* The include folders (char*, in order) and pre-included files of those
 * flags, as given (no compiler's implicit ones). */
void flags_include_paths(const Vec *flags, Vec *dirs, Vec *pre);
/* The first difference between two flag lists in what the parser would
 * read (include folders, macros, pre-included files, dialect, options nvcc
 * may turn into macros), as text; NULL where they read alike. */
const char *flags_parse_difference(const Vec *a, const Vec *b);

/* ===================== tool/compdb.c ===================== */

/* One entry of a compilation database. */
typedef struct {
  const char *file; /* real path */
  Compiler cc;
  bool cuda;        /* compiled as CUDA (by nvcc, a .cu file, or clang -x cuda) */
  Vec flags;        /* Flag*: its options, read (flags_normalize) */
  Vec alts;             /* CompdbEntry*: the file's other entries whose flags the parser reads differently, one
                           per distinct set */
  const char *conflict; /* of such another entry: the first difference from the file's first entry */
} CompdbEntry;

/* Loads dir/compile_commands.json (CompdbEntry*, first entry of a file
 * only); false after an error. */
bool compdb_load(const char *dir, Vec *entries);

/* ===================== tool/project.c ===================== */

/* The inputs (given, or the database's), their flags, the root. */
bool project_open(Project *p, const Options *opt);
/* Whether path (a real path) lies under the root. */
bool project_under_root(const Project *p, const char *real);
/* What the parser reads for each input's flags (Input.parser_flags), once
 * per input: nvcc is asked for its include folders and macros. */
void project_read_flags(Project *p, const Options *opt);
/* Coarsened kernels named in database files that were not given: their
 * launches there would not be rewritten (errors in thread mode unless
 * -external-launches, else warnings).  With `refusal` (a -skip-unsafe
 * trial), nothing is printed: the first error's text, with its place. */
bool project_check_others(const Project *p, Vec *kernels, const Options *opt, char **refusal);
/* The offset of the first whole-word `name` in t at or after from, outside
 * comments and literals (directives included), or -1. */
long text_find_word(const char *t, size_t len, size_t from, const char *name);
/* Applies the edits file by file: appends an Output* to outs for every
 * changed file (with -o or standard output: the one input, changed or
 * not, and an error if a header changed). */
bool project_render(Project *p, EditList *el, const Options *opt, Vec *outs);
/* Writes the outputs where the options say (-o, -i, -out-dir), all or none. */
bool project_write(const Project *p, const Vec *outs, const Options *opt);
/* Where an output goes: -o's file ("-": standard output), the file itself
 * (-i), or its place under -out-dir; NULL after an error. */
const char *project_destination(const Project *p, const Output *o, const Options *opt);
/* mkdir -p of path's folder; false after an error. */
bool project_make_parent(const char *path);

/* ===================== tool/main.c ===================== */

/* One whole run of tfuse (what main does); returns the exit status.  Leaves
 * no state behind, so it may be called again in the same process. */
int tfuse_main(int argc, char **argv);

/* ===================== tool/records.c ===================== */

/* Records of a run (for the summary and -report-json): */
void record_begin(const Project *p);
void record_kernel(Kernel *k, const char *decision, const char *reason);
void record_parsed(const Project *p, const Unit *u);
void record_written(const Vec *outputs);
void record_parse_failure(const Project *p);
void record_failure(const Vec *kernels);
/* A -kernel NAME this group defines. */
void record_matched(const char *name);
/* A changed file staged at `staged` for `dest` (a group's child). */
void record_output(const char *dest, const char *staged, const char *path);
/* The run's record lines so far (len: their length, if wanted). */
const char *records_text(size_t *len);
/* Undoes a field's escapes in place (the gathering side). */
char *record_unescape(char *s);

/* ===================== tool/run.c ===================== */

/* One project rewritten as one unit (parse .. verify, -factor auto's second
 * emission included); the changed files' texts in outputs (Output*), for
 * the caller to write.  Returns the exit status. */
int coarsen_project_all(Project *proj, Options *opt, Vec *outputs);

/* ===================== tool/schedule.c ===================== */

/* Whether a run goes through groups of files (several inputs, -keep-going,
 * -j, -report-json). */
bool schedule_wanted(const Project *p, const Options *opt);
/* The whole run over the project's groups; returns the exit status. */
int schedule_project(Project *p, Options *opt);
/* -v on one project: the closing summary from this run's records. */
void schedule_summary_one(const Project *p, double seconds);
/* Seconds since some fixed time (wall clock). */
double now_seconds(void);

/* ===================== tool/prelude.c ===================== */

extern const char tfuse_prelude_text[];
/* The text of runtime/include/tfuse/check.h (emitted with -check). */
extern const char tfuse_check_header_text[];
/* The text of runtime/include/tfuse/tune.h (emitted with -factor auto). */
extern const char tfuse_tune_header_text[];

#endif
