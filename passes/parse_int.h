/* parse_int: what the files of parse share (parse.c: the units and their
 * files; symbols.c: one Sym per declaration; build.c: libclang's cursors
 * to Node trees; device.c: the device side's reading for target.c).  Only
 * these files include it; it is the one header besides passes.h that sees
 * libclang's CX* types. */
#ifndef TFUSE_PARSE_INT_H
#define TFUSE_PARSE_INT_H

#include <clang-c/Index.h>

/* A file of the project that a translation unit includes, and where: the
 * #include in the input that brings it in (directly or not). */
typedef struct {
  const char *real; /* its real path (while the files are found) */
  Source *file;
  unsigned at;      /* the #include's offset, in the input's text, then in the project's */
} Reach;

/* A file libclang names, and the project's file it is (NULL: none). */
typedef struct {
  CXFile file;
  Source *src;
} FileSlot;

typedef struct {
  CXIndex index;
  CXTranslationUnit *tus; /* one per input */
  int ntus;
  int cur;                /* the translation unit being read */
  Project *project;
  Vec reals;              /* char*: the real path of each of project->files */
  /* Per translation unit: the project's files it includes (Reach*, the
   * input first), and the ranges its preprocessor skipped in them
   * (unsigned[2], project offsets). */
  Vec *tu_files, *tu_skipped;
  /* CXFile -> project file, for the current translation unit (open addressing). */
  FileSlot *files;
  size_t fcap, fcount;
  /* Offsets of the declarations imported, so that a header's are imported once. */
  unsigned *seen;
  size_t scap, scount;
  /* USR -> Sym, open addressing: one table for all translation units. */
  Sym **table;
  size_t cap, count;
  Vec macro_ends; /* Node*: extents that end inside a macro use (fixed after the visit) */
  Vec macro_args; /* Node*: builtins spelled in a macro's argument (macro_arg_builtin, checked after the visit) */
  Vec member_scans; /* MemberScan*: the methods of each name a dependent member call named (one input) */
  Vec targets;      /* TargetInput*: the two sides' readings (target.c), kept while the unit is */
} Impl;

static inline Impl *impl_of(const Unit *u) { return u->impl; }

/* The files a translation unit includes (parse.c's find_files, device.c's
 * comparison of the two sides' includes). */
typedef struct {
  Impl *im;
  CXTranslationUnit tu;
  Vec *headers;  /* Header* */
  Vec *included; /* Reach*: the files under the root it includes */
} IncludeScan;

/* A declaration's CUDA attributes (symbols.c, cursor_attrs). */
typedef struct {
  bool shared, constant, device, global;
} Attrs;

/* The detailed preprocessing record gives the macro definitions and uses
 * (macros.c) and the ranges #if skipped (unit_is_skipped). */
#define PARSE_FLAGS (CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord)

/* ---- symbols.c ---- */

/* A CXString's text, as an arena string (the CXString disposed). */
char *take_string(CXString s);
/* A real path (realpath), or the path itself when there is none. */
const char *real_path(const char *path);
/* The project's file whose real path is real, or NULL. */
Source *project_file_of(Impl *im, const char *real);
/* The project's file libclang's file f is, for the current unit (NULL: none). */
Source *file_src(Impl *im, CXFile f);
/* Makes translation unit i the current one (its files' table). */
void set_tu(Impl *im, int i);
/* Whether loc lies in one of the project's files; its project offset in *off. */
bool loc_in_main(Impl *im, CXSourceLocation loc, unsigned *off);
/* Whether a declaration at off is seen for the first time (a header's, imported once). */
bool first_sight(Impl *im, unsigned off);
/* A type's canonical spelling (arena string). */
char *canonical_spelling(CXType t);
/* The cooperative-groups group a type spelling names (and its tile, its parent). */
CgGroup cg_group_of(const char *ts, int *tile, CgGroup *parent);
/* Whether dependent type t is a class template's specialization, which no argument makes a pointer. */
bool dependent_class(CXType t);
Attrs cursor_attrs(CXCursor c);
bool is_function_kind(enum CXCursorKind k);
/* Whether the tokens of range r hold tok. */
bool range_has_token(CXTranslationUnit tu, CXSourceRange r, const char *tok);
bool decl_is_constexpr(CXCursor decl);
/* The Sym of a declaration, made on first sight, found by USR after. */
Sym *sym_for(Unit *u, CXCursor decl);

/* ---- build.c ---- */

/* The tree of cursor c and everything under it (parent: its parent node). */
Node *build(Unit *u, CXCursor c, Node *parent);
/* After a unit's visit: builtins spelled in a macro's argument that the macro pastes. */
void macro_arg_pastes(Unit *u);
/* What the visits of dependent member calls kept. */
void build_dispose(Impl *im);

/* ---- clang.c ---- */

/* The parser's command line for an input (device: the device side). */
void parser_args(const Input *in, const Options *opt, Vec *args, bool device);
/* Parses one input with args, texts (Source*, by real path) in place of those files on disk; false after an
 * error (printed unless quiet). */
bool parse_input(CXIndex index, const Input *in, Vec *args, const Vec *texts, unsigned flags, CXTranslationUnit *tu,
                 bool quiet);
/* The ranges tu's preprocessor skipped in the project's files (unsigned[2], project offsets). */
void skipped_ranges(Impl *im, CXTranslationUnit tu, Vec *out);
/* The spellings of the tokens of c's extent. */
char **token_spellings(CXCursor c, int *n);

/* ---- device.c ---- */

/* The device side's reading of each input that needs one (TargetInput*, into out). */
void target_inputs(Unit *u, Project *p, const Options *opt, Vec *out);
/* The device units and the tables of each TargetInput. */
void device_dispose(Impl *im);

#endif
