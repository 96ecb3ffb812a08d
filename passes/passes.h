/* tfuse passes: the analyses and rewrites, from libclang's cursors to
 * recorded edits.  libclang's CX* types appear only in passes/parse.c.
 * One section per file, as in chibicc.
 *
 * The passes call downward only (scripts/layers.py lists the layers), and
 * call support/ below them, never the driver above (tool/): what they
 * need from it comes as data, the run's settings (Options), each
 * kernel's parameters (Params) and the project's inputs (Project). */
#ifndef TFUSE_PASSES_H
#define TFUSE_PASSES_H

#include "support.h"

/* ===================== passes/params.c ===================== */

typedef enum { MODE_BLOCK, MODE_THREAD } Mode;
typedef enum { MAP_STRIDE, MAP_CONSECUTIVE } Mapping;
/* Block mode: how a shared array's replicas are laid out: one array per
 * copy (separate, the default), or the copies' elements side by side in
 * one array (interleaved: `As[g][i][j][w]`, W = 2 or 4 copies per group),
 * so that one vector load reads several copies' elements. */
typedef enum { LAYOUT_SEPARATE, LAYOUT_INTERLEAVED } Layout;

/* Per-kernel coarsening parameters; `set` bits say which were given.
 * One dimension (`-factor 8 -dim y`): factor and dim.  Several (`-factor 4,2
 * -dim x,y`): factors[] and dims[] as given, in the same order; annotate.c
 * checks that they agree and fills kd[].  factor is then K, the product,
 * and dim the first coarsened dimension.  A list whose factors are 1 but
 * one is the one-dimensional request (`-factor 4,1 -dim x,y` is `-factor 4
 * -dim x`), emitted as such. */
typedef struct {
  int factor;
  int dim; /* 0 = x, 1 = y, 2 = z */
  Mode mode;
  Mapping mapping;
  Layout layout;
  unsigned set; /* OPT_SET_* */
  int nfactors, ndims;   /* as given (1 for a single value) */
  int factors[3], dims[3];
  int kd[3];             /* annotate.c: the factor along x, y, z (1: not coarsened) */
} Params;

enum { OPT_SET_FACTOR = 1, OPT_SET_DIM = 2, OPT_SET_MODE = 4, OPT_SET_MAPPING = 8, OPT_SET_LAYOUT = 16 };

/* `-factor auto` / `factor(auto)`: Params.factor is FACTOR_AUTO, and
 * passes/variants.c emits one variant per candidate instead of one kernel. */
#define FACTOR_AUTO 0

/* A -factor auto candidate to leave out: block mode at this factor for the
 * kernel whose USR (or name) is `kernel`. */
typedef struct {
  char *kernel;
  char *factor;   /* params_factor_text */
  char *instance; /* the instantiation that failed, or NULL */
} AutoDrop;

const char *dim_name(int dim);
/* The coarsened dimensions (kd > 1) as a bit mask (bit d: dimension d). */
unsigned params_dims(const Params *p);
/* Whether more than one dimension is coarsened (multi-dimensional factors). */
bool params_multi(const Params *p);
/* The number of copies that differ along the dimensions of mask: the product of their factors. */
int params_copies(const Params *p, unsigned mask);
struct Sym;
/* Block mode: the copies of a shared variable (1 if uniform; else one per index along the dimensions its
 * contents vary in, K in one dimension). */
int params_shared_replicas(const Params *p, const struct Sym *s);
/* After merging: checks factors against dims and fills kd (and factor,
 * dim); returns NULL, or what is wrong. */
const char *params_resolve(Params *p);
/* "4,2" and "x,y" (multi-dimensional), or "4" and "y". */
char *params_factor_text(const Params *p);
char *params_dim_text(const Params *p);
bool params_set_factor(Params *p, const char *v);
bool params_set_dim(Params *p, const char *v);
bool params_set_mode(Params *p, const char *v);
bool params_set_mapping(Params *p, const char *v);
bool params_set_layout(Params *p, const char *v);
const char *mode_name(Mode m);
const char *mapping_name(Mapping m);

/* ---- the run's settings (filled by tool/options.c) ---- */

typedef struct {
  Vec inputs;         /* char*: the files given */
  const char *output; /* -o FILE; NULL: stdout */
  const char *out_dir; /* -out-dir DIR */
  const char *root;    /* -root DIR */
  bool in_place;
  bool promote;
  bool report;
  bool skip_unsafe;
  bool external_launches; /* -external-launches: no launch in the file is not an error */
  bool all_kernels;       /* -all-kernels: every __global__ function defined in the project's files */
  bool keep_going;        /* -keep-going: failures are reported per file and kernel, the rest written */
  int jobs;               /* -j N: groups of files processed at once (0: 1) */
  const char *report_json; /* -report-json FILE */
  double timeout;         /* -timeout S: a group of files still running after S seconds is stopped (0: none) */
  /* Set by the driver, not an option: a run over one group of a project's
   * files (tool/schedule.c), where a -kernel NAME another group defines is
   * no error. */
  bool group_run;
  bool check;             /* -check: keep the originals, checked launches */
  bool verbose;           /* -v: print the parser's arguments */
  const char *dump_after; /* pass name or NULL */
  Params cli;             /* from the command line; overrides pragmas */
  Vec kernels;            /* char*: -kernel NAME */
  Vec compiler_args;      /* char*: -I, -D... and everything after --, as given (nvcc's spellings) */
  const char *cuda_path;
  const char *compdb_dir; /* -p BUILD_DIR */
  const char *candidates; /* -candidates LIST: factors tried by -factor auto (NULL: 2,4,8,16) */
  const char *tune_space; /* -tune-space SPEC: mode.dim:K,... items tried by -factor auto */
  /* Set by the driver, not an option: -factor auto candidates a first
   * emission found over the static shared-memory limit (verify.c), as
   * AutoDrop*; variants.c leaves them out. */
  const Vec *auto_drops;
} Options;

/* ---- compiler command lines (read by tool/flags.c) ---- */

/* The compiler a command line is for: its spellings, and what it defines. */
typedef enum { CC_NVCC, CC_CLANG } Compiler;
/* One option of a compiler command line, read (see flags.c). */
typedef struct Flag Flag;

/* ---- the project: its inputs and files (opened by tool/project.c) ---- */

/* A file given to tfuse (or taken from the database). */
typedef struct {
  const char *path; /* as given */
  const char *real; /* its real path */
  Compiler cc;
  Vec flags;        /* Flag*: the database entry's, then the command line's */
  Vec alts;         /* Input*: the same file with the flags of its other compile commands, where the parser reads
                       them differently (schedule.c rewrites it with each and writes it where all agree) */
  const char *conflict; /* of such an alternative: its first difference from the input's flags, for messages */
  Vec parser_flags;     /* char*: what the parser reads for those flags (include folders and macros, nvcc's asked
                           of nvcc: tool/flags.c), filled by the driver before the first parse */
  bool parser_flags_read;
} Input;

/* The files of one run: the inputs, and the headers they include that lie
 * under the root and are not system headers. */
typedef struct {
  Vec inputs;       /* Input* */
  const char *root; /* real path of the root folder */
  Vec others;       /* char*: files of the compilation database not given */
  Vec files;        /* Source*: the files of the project, inputs first (parse.c) */
  Vec texts;        /* Source*: files parsed with this text instead of the disk's, by real path (the
                       macro uses passes/macros.c expanded); the parse of each input sees them all */
  Source text;      /* their text end to end: what the passes read (parse.c) */
} Project;

/* A file's new text (project_render). */
typedef struct {
  const Source *file;
  char *text;
  size_t len;
} Output;

/* ===================== passes/parse.c ===================== */

/* Our own syntax tree, built from libclang's cursors so that the passes
 * are plain C.  Offsets are byte offsets in the project's text (see
 * Source: a file of the project and a place in it; the expansion
 * location for macro-expanded code); `end` is exclusive. */
typedef enum {
#define X(name) name,
#include "nodekinds.def"
#undef X
} NodeKind;

typedef enum { BI_NONE, BI_THREADIDX, BI_BLOCKIDX, BI_BLOCKDIM, BI_GRIDDIM } Builtin;

typedef enum {
  SYM_LOCAL,   /* local variable of a kernel or device function */
  SYM_PARAM,   /* parameter */
  SYM_SHARED,  /* __shared__ variable (local or global scope) */
  SYM_GLOBAL,  /* __device__/__constant__/other namespace-scope variable */
  SYM_FUNC,    /* function */
  SYM_BUILTIN, /* threadIdx, blockIdx, blockDim, gridDim, warpSize */
  SYM_OTHER,   /* enumerator, type, template parameter, ... */
} SymKind;

typedef struct Node Node;
typedef struct Sym Sym;

/* The type of an expression that is a cooperative group (parse.c). */
typedef enum {
  CG_NONE,  /* not a group */
  CG_BLOCK, /* cooperative_groups::thread_block: the block */
  CG_TILE,  /* thread_block_tile<N> with N <= 32: within one warp */
  CG_MULTI, /* thread_block_tile<N> with N > 32: several warps, synchronised through shared memory */
  CG_COALESCED, /* coalesced_group: threads of one warp, by a mask */
  CG_ERASED, /* thread_group: type-erased, whichever group it was made from */
  CG_GRID,  /* grid_group */
  CG_OTHER, /* a cluster or multi-grid group, and the library's other types */
} CgGroup;

/* A query of cooperative groups whose value thread mode changes, and
 * fuse.c rewrites per copy (effects.c cg_query_of). */
typedef enum {
  CGQ_NONE,
  CGQ_RANK,      /* the block's thread_rank() */
  CGQ_SIZE,      /* its size(), num_threads(), cg::group_size */
  CGQ_INDEX,     /* its thread_index() */
  CGQ_DIM,       /* its group_dim(), dim_threads() */
  CGQ_META_RANK, /* meta_group_rank() of a tile partitioned from the block */
  CGQ_META_SIZE, /* ... its meta_group_size() */
} CgQuery;

struct Sym {
  SymKind kind;
  char *name;
  char *usr;
  unsigned decl_off; /* offset of the declaring name in the project's text, or ~0u */
  bool in_main_file; /* declared in a file of the project (an input or a header of it) */
  bool in_system_header;
  bool is_array, is_pointer, is_reference, is_volatile, is_const;
  bool is_extern; /* extern __shared__ */
  bool pointee_const; /* pointer to const */
  unsigned char pointee_fp; /* pointer to a struct of floats (4) or of doubles (8) only, no padding; else 0 */
  int int_bytes;     /* integer variables: the size of the type */
  long long bytes;   /* variables: the size of the type, or -1 if clang cannot tell */
  int rank;          /* arrays: number of dimensions */
  char *elem_type;   /* arrays: the element type as spelled */
  char *fn_type;     /* functions: the canonical function type, `void (float *, int)` */
  char *type_text;   /* variables whose size clang cannot tell (template-dependent): the type as spelled */
  bool elem_scalar;  /* arrays: the element is arithmetic, enum or a pointer */
  bool is_scalar;    /* variables: the type (through typedefs) is arithmetic, enum or a pointer: no destructor */
  bool is_global_fn, is_device_fn;
  bool is_method;       /* SYM_FUNC: a non-static member function (its object is an argument) */
  bool is_const_method; /* SYM_FUNC: a const member function (does not write its object) */
  bool class_may_point; /* SYM_FUNC, a method: its class (bases and members included) may hold a pointer or a
                           reference, so a reference it returns may refer to memory outside its object */
  bool is_ctor;         /* SYM_FUNC: a constructor */
  Sym *spec_of;         /* SYM_FUNC: an explicit specialization's template */
  bool is_defaulted;    /* SYM_FUNC: a special member that is implicit or `= default` (memberwise) */
  bool returns_ref;     /* SYM_FUNC: returns a reference (its call is an lvalue, else a temporary) */
  bool host_only;       /* SYM_FUNC: neither __device__ nor __global__ nor constexpr: device code cannot call it */
  Node *body;       /* SYM_FUNC: definition body if seen (in the project's files, or loaded by unit_load_body) */
  Node *fn_decl;    /* SYM_FUNC: the definition's N_FUNC node */
  unsigned out_params; /* SYM_FUNC: bit i: parameter i may be written through */
  unsigned ref_params; /* SYM_FUNC: bit i: parameter i is a non-const reference */
  unsigned byref_params; /* SYM_FUNC: bit i: parameter i is a reference, const or not */
  unsigned dep_params; /* SYM_FUNC: bit i: parameter i has a dependent type (a pointer, maybe) */
  int nparams;
  int arity_min, arity_max; /* SYM_FUNC: how many arguments a call may pass (defaults, `...`: max -1),
                               templates included; parse.c filters a dependent call's candidates by them */
  bool type_dependent; /* variables: the type depends on a template parameter */
  bool arch_dependent; /* SYM_FUNC: its body's text tests __CUDA_ARCH__ (or NV_IF_TARGET...), or the device
                          compiles it, or a name it uses, differently (target.c): the host-side parse does not
                          see the device code */
  const char *arch_name; /* SYM_FUNC, arch_dependent through a name (target.c): that name, else NULL */
  unsigned arch_at;      /* ... where the target defines it, in the project's text */
  unsigned arch_use;     /* ... where the function's text names it */
  const char *arch_where; /* ... where the target defines it, as "path:line", where arch_at is no place in the
                             project's text (a system header's macro), else NULL */
  const char *arch_via;   /* ... the macro the device expands differently, where the name reaches it through
                             others' text (GID through APP_ARCH), else NULL */
  void *ext_def;       /* SYM_FUNC: parse.c's handle on a definition outside the project's files */
  /* Analysis state (reset per kernel). */
  bool varying;     /* uniform.c: may differ between the K copies */
  unsigned vmask;   /* uniform.c, several dimensions: the dimensions along which it may differ */
  unsigned force_mask; /* uniform.c, several dimensions: written in code emitted per copy along these */
  bool addr_taken;
  int decl_depth;   /* uniform.c: varying-control depth at the declaration */
  int region;       /* fuse.c: predicate region at the declaration */
  char **copy_names; /* fuse.c: per-copy names */
  int ilv;           /* fuse.c, -layout interleaved: copies side by side in one array (2 or 4; 0: one array per copy) */
  struct PointsTo *pts; /* effects.c: what a pointer local may point into */
  void *fx_summary;     /* effects.c: what a function's body writes */
  void *rd_summary;     /* effects.c: what a function's body reads of the coordinates (Reads) */
  bool promoted;    /* promote.c */
  bool reported;    /* legality.c: a refusal about it was printed */
  bool cg_block;    /* uniform.c: a local `cg::thread_block b = cg::this_thread_block();` never assigned */
  Node *lambda;     /* effects.c: a local `auto f = [...](...) {...};` of the kernel: the lambda */
};

/* A row of the construct table (passes/constructs.def). */
typedef enum { CONSTRUCT_MODEL, CONSTRUCT_INERT, CONSTRUCT_REFUSE } ConstructRule;
typedef struct Construct {
  const char *name;  /* as a diagnostic names it */
  const char *model; /* what tfuse's model says it does */
  ConstructRule rule;
} Construct;
enum { CONSTRUCT_ATOMIC_BUILTIN = 10000 }; /* Node.construct of a GNU atomic builtin */

struct Node {
  NodeKind kind;
  int construct;       /* parse.c: its row of the construct table (construct_of); -1: none */
  const char *cursor_name; /* ... with no row: libclang's name of the cursor kind */
  unsigned begin, end; /* extent in the project's text */
  unsigned loc;        /* the cursor's own location (the name for decls) */
  bool in_macro;       /* spelled inside a macro expansion */
  int op;              /* N_BINOP/N_ASSIGN/N_UNOP: Op */
  Builtin bi;          /* N_BUILTIN */
  int bi_dim;          /* N_BUILTIN: 0..2 */
  char *spelling;
  Sym *sym;            /* N_VAR, N_PARAM, N_DECL_REF, N_CALL (callee), N_FUNC */
  Sym *captured;       /* N_OTHER, a child of N_LAMBDA: the variable an explicit capture names (`[x, &y, z = e]`) */
  Node *parent;
  Node **kid;
  int nkid;
  /* N_CALL of a dependent name in a template (sym is NULL): every function the
   * name may call (the overload set clang found, or for `obj.f(...)` on an
   * object of dependent type every method f of the unit, or for a function
   * pointer template parameter every function passed for it), those that take
   * as many arguments; spelling is the name. */
  Sym **cand;
  int ncand;
  int cand_callee;     /* a call with candidates: the child that names its callee */
  bool nargs_open; /* N_CALL (parse.c): an argument is a pack expansion, so any number may be passed */
  bool cg_construct; /* N_CALL (parse.c): a construction whose class (`cg::plus<T>()`) is cooperative groups' */
  /* N_CALL of a kernel launch: the configuration node (kid[1]). */
  bool is_launch;
  bool device_launch;       /* N_CALL: a launch written in device code (dynamic parallelism): not is_launch */
  bool launch_in_macro_arg; /* launch.c: a launch written in a macro's argument (extent: its own text) */
  char *callee_fn_type; /* a launch through a pointer: the canonical function type it points to */
  /* The __cudaPushCallConfiguration call of a launch: its block's thread
   * count if clang can evaluate it (0: unknown), and the dim3 variable it
   * came from (its value holds only if nothing else writes it). */
  long block_threads;
  long block_dim[3];   /* ... and its extents, if block_threads is known */
  long dyn_bytes;      /* ... its dynamic shared memory in bytes if an integer constant (0: none or unknown) */
  Sym *block_var;
  bool arrow;          /* N_MEMBER: `->` */
  bool has_init_stmt;  /* N_IF/N_SWITCH with a C++17 init-statement */
  bool has_var_init;   /* N_VAR with an initializer (its last child) */
  bool type_integral;  /* an expression of integer, bool or enum type */
  bool type_dim3;      /* an expression of type dim3 (or uint3) */
  bool type_array;     /* an expression of array type (before its decay to a pointer) */
  bool type_pointer;   /* an expression of pointer type */
  bool cast_value;     /* N_CAST to a type that is no reference (a value; bound to `&&`, a temporary) */
  CgGroup cg_group;    /* an expression whose type is a cooperative group: which */
  int cg_tile;         /* ... CG_TILE: its size */
  CgGroup cg_parent;   /* ... CG_TILE: its ParentT's class (CG_NONE: `void`, type-erased) */
  int type_arith;      /* an arithmetic expression: its canonical type (an id), else 0 */
  struct Promo *promo; /* promote.c: an element access at the owner's index of a promoted array */
  /* Parts of control statements (parse.c fills them from the text). */
  Node *cond, *then, *els, *init, *inc, *body;
  unsigned rparen;     /* N_IF/N_FOR/N_WHILE/N_SWITCH: offset of the `)` */
  /* uniform.c results */
  bool varying;        /* expression value or statement may differ by copy */
  unsigned vmask;      /* several dimensions: the dimensions along which it may differ */
  unsigned lvmask, rvmask; /* several dimensions: along which loop_varying, has_vreturn hold */
  bool has_vreturn;    /* contains a varying return */
  bool loop_varying;   /* loop/if/switch whose control differs by copy */
  int ucount;          /* uniform.c: fixpoint bookkeeping */
  bool barrier_thread_divergent; /* block mode, __syncthreads(): under control that may differ
                                  * between the threads of one logical block */
};

typedef enum {
  OP_NONE,
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM, OP_SHL, OP_SHR,
  OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE,
  OP_AND, OP_XOR, OP_OR, OP_LAND, OP_LOR,
  OP_ASSIGN, OP_MUL_ASSIGN, OP_DIV_ASSIGN, OP_REM_ASSIGN, OP_ADD_ASSIGN,
  OP_SUB_ASSIGN, OP_SHL_ASSIGN, OP_SHR_ASSIGN, OP_AND_ASSIGN, OP_XOR_ASSIGN,
  OP_OR_ASSIGN, OP_COMMA,
  OP_POST_INC, OP_POST_DEC, OP_PRE_INC, OP_PRE_DEC, OP_ADDR, OP_DEREF,
  OP_PLUS, OP_MINUS, OP_NOT, OP_LNOT, OP_OTHER,
} Op;

typedef struct Kernel Kernel;

/* A macro definition (parse.c), as tokens: for passes/macros.c.  Each
 * translation unit has its own (a header's macros once per input that
 * includes it): which macros a use sees depends on the input. */
typedef struct {
  char *name, *file; /* file: as libclang names it */
  unsigned def_off;
  unsigned def_at;   /* its name in the project's text, or ~0u outside the project's files */
  int tu;            /* the translation unit (input) it was read from */
  bool func_like, variadic;
  int nparams, nbody;
  char **params, **body;
} Macro;

/* A macro invocation written in a file of the project: its extent (in the
 * project's text) and its own tokens.  A use in a header is one per input
 * that includes the header, each expanded with that input's macros. */
typedef struct {
  unsigned begin, end;
  Macro *macro;
  int tu;
  int ntok;
  char **tok;
} MacroUse;

/* The parsed project: the kernels, launches and every other function of
 * its files (each once, however many inputs include it). */
typedef struct {
  Source *src;    /* the project's text */
  Vec functions;  /* Node* N_FUNC with bodies, defined in the project's files */
  Vec global_vars; /* Node* N_VAR: namespace-scope variables whose initializers name a kernel */
  Vec fn_decls;   /* Node* N_FUNC without bodies (prototypes) */
  Vec launches;   /* Node* N_CALL with is_launch */
  Vec extern_functions; /* Node* N_FUNC defined outside the project's files whose bodies were loaded for
                           analysis (unit_load_body); their offsets do not point into the project's text */
  Vec macros;     /* Macro*: definitions in the project's files, and those its macro uses name; by Macro.tu */
  Vec macro_uses; /* MacroUse*: macro invocations written in the project's files */
  void *impl;     /* libclang state, private to parse.c */
  void *target;   /* the names the compilation target decides, private to target.c */
} Unit;

/* target.c: what the device compilation defines differently from the host
 * side parse.c reads.  parse.c fills one TargetInput per input whose
 * project files test the target in a directive (target_tests), from a
 * second, device-side parse; target_mark compares them and marks the
 * functions of the project's files that the host's reading may get wrong
 * (Sym.arch_dependent, Sym.arch_name). */
typedef struct {
  char *name;
  unsigned begin, end; /* its text, in the project's */
  unsigned at;         /* its name; ~0u: in a file outside the project's that only this side includes */
  bool macro;          /* a #define */
  bool host_only;      /* a function the device cannot call (neither __device__ nor __global__, not constexpr, its
                          return type written out): what its body mentions never reaches device code */
  bool function;       /* a function (its body is read as the function's own, Sym.arch_dependent) */
} TargetDecl;

typedef struct {
  Vec host_skipped, device_skipped; /* unsigned[2]: what each side's preprocessor skipped, project offsets */
  Vec host_decls, device_decls;     /* TargetDecl*: the declarations and macros of the project's files each
                                       side saw (outside function bodies) */
  bool device_failed;               /* no device-side parse: all the host skipped may be the device's */
  /* The host's definition of a macro: 0 none, 1 one object-like definition
   * (its replacement tokens appended to toks, arena strings, if toks),
   * -1 another (function-like, or several that differ). */
  int (*macro_body)(void *ctx, const char *name, Vec *toks);
  void *macro_ctx;
  /* Whether the two sides define a macro differently: -1 neither defines
   * it, 0 both alike (the same definitions: file, place and text), 1 not;
   * the identifiers of the host's replacement lists (parameters aside)
   * appended to ids; *at, *where: the differing definition's place, the
   * device's first (a project offset, else ~0u; "path:line").  NULL
   * without a device-side parse. */
  int (*macro_differs)(void *ctx, const char *name, Vec *ids, unsigned *at, const char **where);
  void *differs_ctx;
  void *device_unit; /* device.c's device-side translation unit, while target_mark runs */
} TargetInput;

/* Whether text, comments aside, names what the two sides may define
 * differently: the target's marks (target_text_tests) or a predefined
 * macro whose value differs between clang's host and device. */
bool target_tests(const char *t, size_t len);
/* Whether t[b, e), comments aside, names what tests the target
 * (__CUDA_ARCH__, __NVPTX__, NV_IF_TARGET and <nv/target>'s other
 * macros, CCCL's _CCCL_DEVICE_COMPILATION...). */
bool target_text_tests(const char *t, unsigned b, unsigned e);
void target_mark(Unit *u, Vec *inputs);
/* Marks fn, a helper outside the project's files whose text is t[b, e)
 * (read when an analysis needs it), as target_mark marks the project's
 * functions by what their text reaches. */
void target_mark_external(Unit *u, Sym *fn, const char *t, unsigned b, unsigned e);
/* Whether the target decides name (defined in a target region, or
 * mentioning such a name); *at: where it is defined. */
bool target_name(const Unit *u, const char *name, unsigned *at);
void target_dispose(Unit *u);

/* Parses every input with libclang, finds the project's files (fills
 * p->files and p->text), forwards the compiler's errors, and builds the
 * trees.  Returns false when an input could not be parsed. */
bool parse_project(Unit *u, Project *p, const Options *opt);
void parse_dispose(Unit *u);
/* Parses every input of p again with `texts` (Source*, named by real path)
 * in place of those files; appends each error's message, its notes on the
 * following lines, to out (arena strings; an error several inputs share,
 * once).  False if libclang could not parse an input at all. */
bool parse_project_errors(const Project *p, const Vec *texts, const Options *opt, Vec *out);
/* verify.c: parses the outputs once more where a kernel carries a
 * compile-time probe; false (with errors) if that fails. */
/* drops: NULL, or where a -factor auto candidate over the limit is recorded
 * (AutoDrop*) instead of refused; the driver then emits once more without it. */
bool verify_output(Unit *u, const Vec *kernels, const Project *p, const Vec *outputs, const Options *opt,
                   Vec *drops);
/* The identity of a kernel across the driver's runs (its USR, or name). */
const char *kernel_identity(const Kernel *k);
/* Builds the body of fn when it is defined outside the project's files (a
 * system header, a header outside the root); returns whether fn has a body
 * now.  For analysis only: the nodes' offsets are not in the project's text. */
bool unit_load_body(Unit *u, Sym *fn);
/* Whether the preprocessor skipped off (#if 0 ... #endif) for every input
 * that includes its file. */
bool unit_is_skipped(const Unit *u, unsigned off);
/* Whether the text at def is seen before the text at at: in one file, def
 * comes first; else at is in an input that includes def's file through an
 * #include written before at. */
bool unit_precedes(const Unit *u, unsigned def, unsigned at);
/* Dumps a node tree (for --dump-after=parse). */
void node_dump(const Unit *u, const Node *n, int depth, Buf *out);
/* n's row of the construct table (passes/constructs.def), or NULL: no row. */
const Construct *construct_of(const Node *n);

/* ===================== passes/ast.c ===================== */

/* Queries of the tree and the text that call no pass (see ast.c). */
/* Strips parentheses and implicit nodes. */
Node *node_strip(Node *n);
/* Whether a and b are written alike in the text, spaces aside. */
bool node_same_text(const Source *src, const Node *a, const Node *b);
/* Index of a call's first argument among its children (after the callee). */
int call_first_arg(const Node *call);
bool call_is_construct(const Node *call);
bool expr_has_load(const Node *n);
/* `x++`, `x--`, `++x`, `--x`. */
bool node_is_incdec(const Node *n);
/* Whether evaluating n may write something or call a function. */
bool node_has_side_effects(const Node *n);
/* A child k of lambda `lam`, before its parameters, that initializes an
 * init-capture (`[y = x + 1]`): not an explicit capture (Node.captured),
 * nor the copy a `[x]` capture makes (a node at that capture's name), nor
 * one of `[=]`'s implicit captures (a reference spelled at the `=`). */
bool lambda_capture_init(const char *text, const Node *lam, const Node *k);
/* The nearest ancestor that is not a parenthesis or implicit node. */
Node *node_parent(Node *n);
/* The declaration (N_VAR) of s under n, or NULL. */
Node *node_find_var(Node *n, const Sym *s);
/* A variable declaration's initializer, or NULL. */
Node *var_init(Node *var);
/* Whether a call argument is a placeholder for a default argument. */
bool arg_is_default(const Node *a);
/* Declared in namespace cooperative_groups. */
bool sym_is_cooperative_groups(const Sym *s);
/* The cooperative-groups function a call calls (its callee, or the name all
 * its candidates share in the namespace), else NULL. */
const char *cg_call_name(const Node *n);
/* `cooperative_groups::this_thread_block()`. */
bool node_is_cg_block_handle(const Node *n);
/* Offset just past the bracket matching the one at `open`, skipping
 * comments and literals; returns `limit` if unmatched. */
unsigned text_match(const Source *src, unsigned open, unsigned limit);
/* A statement's end including its `;` (expression statements exclude it). */
unsigned stmt_end(const Source *src, const Node *n);
/* Whether name occurs as a whole word in the project's text. */
bool unit_has_ident(const Unit *u, const char *name);
/* The `)` closing a function's parameter list; whether the list is empty or `(void)`. */
unsigned fn_params_close(const Source *src, const Node *fn);
bool fn_params_empty(const Source *src, const Node *fn, unsigned close);
/* The top of n's tree (the function whose body holds n). */
Node *node_root(Node *n);

/* ===================== passes/annotate.c ===================== */

struct Kernel {
  Node *fn;        /* N_FUNC (or N_FUNC_TEMPLATE) definition */
  Sym *sym;
  Params p;        /* effective parameters */
  unsigned pragma_off, pragma_len; /* the #pragma line, if annotated */
  bool annotated;
  /* filled by later passes */
  bool has_vreturn;
  bool uses_grid_extent; /* block mode: needs the original grid extent */
  bool dyn_shared;       /* block mode: extern __shared__ replicated; takes the per-block size (__tf_dsmem) */
  bool shared_probe;     /* block mode: fuse.c left a static_assert on the static shared size (verify.c) */
  Vec constructs;        /* legality.c: the construct table's rows (const Construct*) the kernel reaches: the census */
  Node *copy_tail;       /* block mode: the statement of the body from which fuse.c writes each copy's statements
                            out whole, under that copy's live flag (legality.c copy_tail_of), or NULL */
  bool whole_warps;      /* thread mode: warp-synchronous code kept (legality.c), so each launch checks that
                            blockDim.x / K is a multiple of 32 (every copy of a warp is a whole logical warp) */
  Vec address_uses;      /* launch.c: Node* uses of the name stored into or compared with function pointers */
  int indirect_launches; /* launch.c: launches through pointers dispatching to it, or the runtime's launch functions */
  int original_uses;     /* launch.c: queries and setters of the runtime that name the kept original (kernel_apis) */
  int dispatches;        /* launch.c: launches that run the kept original where their shape is not served */
  Vec shared;      /* Sym* shared arrays referenced */
  Vec promoted;    /* Promo* arrays promoted to registers (promote.c) */
  /* -factor auto (variants.c) */
  Vec variants;     /* Variant*: the original first */
  const char *variant_tag; /* a variant being coarsened (variants.c): its suffix, in its helpers' clones' names */
  char *tune_hash;  /* hash of the variants' text, part of the tuning key */
  char *untunable;  /* why the runtime must not tune it, or NULL */
};

/* One candidate of -factor auto, emitted as its own kernel. */
typedef struct {
  Params p;    /* p.factor 1: the original */
  bool whole_warps; /* as Kernel.whole_warps */
  bool dyn_shared;  /* as Kernel.dyn_shared: a launch passes the share and asks for K of them */
  char *name;  /* k__tf_k1, k__tf_bx4, ... */
  char *label; /* "original", "block.x:4", ... */
} Variant;

/* Finds `#pragma tfuse coarsen` lines, matches them to kernels, merges
 * pragma clauses with command-line options.  Returns the kernels to
 * coarsen (Kernel*) and, in a group run, the -kernel names the project
 * defines (matched, char*); reports located errors for bad pragmas. */
void annotate_kernels(Unit *u, const Options *opt, Vec *kernels, Vec *matched);

/* ===================== passes/uniform.c ===================== */

/* Decides, for one kernel, which variables, expressions and statements are
 * varying (differ between the K copies) and which are uniform. */
void uniform_analyze(Unit *u, Kernel *k);
/* Several dimensions: the copies a statement is emitted for, as a mask of
 * dimensions.  An expression statement emitted per copy: its own vmask, or
 * all coarsened dimensions when it has an effect every logical thread must
 * make (not an idempotent store).  A loop, switch or labelled statement
 * replicated whole: its vmask, or all when it holds such an effect or a
 * return.  Whatever it writes that outlives it varies along at least
 * these dimensions (uniform.c makes sure). */
unsigned stmt_copy_mask(const Kernel *k, Node *s);
unsigned replicated_copy_mask(const Kernel *k, Node *s);
/* Seeds and substituted builtins for the kernel's mode. */
bool builtin_is_seed(const Kernel *k, const Node *n);
bool builtin_is_rescaled(const Kernel *k, const Node *n);
/* Whether the helper fn reads a builtin the kernel's coarsening changes
 * (threadIdx.d or blockDim.d in thread mode, blockIdx.d or gridDim.d in block
 * mode), in its body or in a helper it calls: each copy calls its own clone. */
bool fn_reads_changed_builtins(const Kernel *k, const Sym *fn);
bool sym_is_pure_function(const Sym *fn);

/* ===================== passes/effects.c ===================== */

/* What evaluating a piece of code may write (see effects.c). */
typedef struct {
  Vec writes;     /* Sym*: variables it may write (locals, parameters, shared, globals) */
  bool memory;    /* may write memory no variable names (through pointer arguments) */
  bool unknown;   /* a write whose target is not resolved: any variable whose address is taken */
  bool this_obj;  /* writes the implicit object (inside a method) */
  bool calls;     /* calls something with an effect of its own (atomics, printf, helpers that write) */
  bool allocates; /* new, delete */
} Effects;

/* What a called function does, for every decision about calls (one table of
 * CUDA's and the C library's functions in effects.c, else the function's
 * body).  Besides its class, every known function writes through its
 * non-const pointer and reference parameters (sincosf's outputs). */
typedef enum {
  FN_UNKNOWN,     /* no body tfuse can read and not in the table: refused */
  FN_BODY,        /* analysed by its body (the user's, or a header's) */
  FN_PURE,        /* a value of its arguments: math, conversions, bit tricks */
  FN_LOAD,        /* also reads memory through a pointer argument (__ldg, textures): like a load */
  FN_LOAD_SHARED, /* reads memory that other threads may be writing (__ldcv, __ldlu): a value per copy */
  FN_STORE,       /* writes memory (atomics, __stcg, memcpy, curand): once per copy, a value per copy */
  FN_EFFECT,      /* an effect of its own (printf, assert, __trap, __nanosleep): once per copy */
  FN_ALLOC,       /* malloc, free: once per copy */
  FN_CLOCK,       /* clock(), clock64(): differs at every call: a value per copy */
  FN_FENCE,       /* __threadfence*: once per copy */
  FN_WARP,        /* warp-synchronous: shuffles, votes, __syncwarp, __match, __reduce_*_sync */
  FN_BARRIER,     /* __syncthreads */
  FN_BLOCK_REDUCE, /* __syncthreads_count/and/or: a barrier (node_is_barrier) that combines a predicate */
  FN_COOPERATIVE, /* cooperative groups: refused */
  FN_UNSUPPORTED, /* clusters, mbarriers, named barriers, the device runtime: refused */
} FnClass;

FnClass fn_class(const Sym *fn);
/* A short phrase for a class (for messages and -report). */
const char *fn_class_name(FnClass c);
/* Whether fn is one of CUDA's or the C library's functions in the table. */
bool fn_is_known(const Sym *fn);
/* A barrier: __syncthreads(), the block's sync (node_is_cg_block_sync), or a
 * cooperative-groups call that may wait for other warps of the block. */
bool node_is_barrier(const Node *n);
bool node_is_block_reduce(const Node *n);
bool node_is_cg_block_sync(const Node *n);

/* Points-to sets of the unit's pointer locals, summaries reset, for kernel k;
 * loads the bodies of the header functions k may call (unit_load_body). */
void effects_prepare(Unit *u, Kernel *k);
/* Adds to e everything evaluating n may write. */
void effects_of(Node *n, Effects *e);
void effects_free(Effects *e);
/* Only the store into lvalue lv, or only the call itself (not its operands). */
void effects_of_store(Node *lv, Effects *e);
/* The store into lv in the body of function fn: one to fn's non-const
 * reference parameter is its call sites' (it writes nothing here). */
void effects_of_store_in(Sym *fn, Node *lv, Effects *e);
void effects_of_call(Node *call, Effects *e);
/* The one local variable or parameter (a local array or object included) a
 * store to lhs writes, or NULL when it may write anything else. */
Sym *node_store_target(Node *lhs);
const char *arith_type_spelling(int kind); /* parse.c */
/* Whether e writes anything but locals and parameters, or calls something with effects. */
bool effects_beyond_locals(const Effects *e);
bool effects_none(const Effects *e);
bool node_effects_beyond_locals(Node *n);
/* A call's object (for a method or member operator; obj_ptr: through `->`) and its arguments. */
void call_args(const Node *call, Node **obj, bool *obj_ptr, Vec *args);
/* Whether `arg` is passed to `call` by non-const reference. */
bool call_passes_by_ref(const Node *call, const Node *arg);
/* A store to memory that every copy makes identically (emitted once). */
bool stmt_is_idempotent_store(Node *s);
/* Whether an expression statement is emitted once per copy: varying, or
 * with an effect that is not an idempotent store. */
bool stmt_is_per_copy(Node *s);
/* A query of cooperative_groups::grid_group (thread_rank, size, block_index ...): it reads blockIdx and gridDim. */
bool cg_is_grid_query(const Sym *fn);
Node *cg_group_operand(const Node *call);   /* the group a cooperative-groups call works on, else NULL */
/* Whether n only passes on the value under it: parentheses, casts, a copy. */
bool node_is_value_wrapper(const Node *n);
/* Whether the function body `body` may change the cooperative group held in
 * the local or parameter s: any use but a call on it, a copy, or passing it
 * where it is not changed. */
bool cg_group_var_written(Node *body, const Sym *s);
bool cg_handle_expr(Node *g);              /* g only names a group (a variable, this_thread_block() ...) */
CgGroup cg_tile_parent(Node *g);           /* the group tile g was partitioned from, CG_NONE if not known */
CgQuery cg_query_of(Node *call);           /* what a query reads that thread mode renumbers */
/* Adds to out (once each) every __shared__ variable that the function fn (a
 * kernel's N_FUNC) and the functions it calls name, extern ones included. */
void kernel_shared_vars(Node *fn, Vec *out);
/* Whether the helper fn computes a value with warp-synchronous calls and
 * has no other effect (cuda-samples' warpReduceSum): no store beyond its
 * locals, no barrier, assembly or call of anything else. */
bool fn_is_warp_value(const Sym *fn);
/* Whether the helper fn computes a value without warp calls and has no
 * other effect: no store beyond its locals, no barrier, assembly or call of
 * anything else (a cg::reduce operator, llm.c's reduce_sum_max_op). */
bool fn_computes_value(const Sym *fn);
/* The same for the helper a call calls, where it may write through
 * reference parameters that only receive groups its body never changes
 * (`template <class G> T red(T v, G &g)` called with a tile). */
bool call_is_warp_value(const Node *call);
/* A call that computes a value: no warp call, no write but its callees' own
 * locals (and what its reference arguments name, which must be the
 * caller's locals). */
bool call_is_value(const Node *call);
/* `f(x)` of a local holding a lambda (Sym.lambda): the lambda, else NULL. */
Node *call_lambda(const Node *call);
/* Whether n lies inside a lambda's body (or its parameters). */
bool node_in_lambda(const Node *n);
/* Whether the helper fn's body, or a helper it calls, holds a node for which hit is true. */
bool fn_holds(const Sym *fn, bool (*hit)(const Node *));
/* The same from a node: its subtree and the bodies of the functions it calls. */
bool node_holds(const Node *n, bool (*hit)(const Node *));
/* Whether the helper fn calls __syncthreads(), itself or through a helper. */
bool fn_holds_barrier(const Sym *fn);

/* What evaluating code may read of the thread's coordinates and which
 * shared variables it may name (effects.c, "reads"): through callee bodies,
 * default arguments evaluated at the call, implicit member calls, lambdas
 * and inline assembly.  An answer tfuse cannot give is `everything`. */
#define RD_BI(b, d) (1u << (((b) - BI_THREADIDX) * 3 + (d))) /* builtin b (BI_THREADIDX..) along d */
#define RD_BI_ALL(b) (7u << (((b) - BI_THREADIDX) * 3))
enum {
  RD_REG_LANE = 1,     /* %laneid, %lanemask_*: a thread's place in its warp */
  RD_REG_WARP = 2,     /* %warpid, %nwarpid */
  RD_REG_SMEM = 4,     /* %total_smem_size, %dynamic_smem_size, %aggr_smem_size, %reserved_smem_* */
  RD_REG_CLUSTER = 8,  /* %cluster*, %clusterid, %nclusterid, %is_explicit_cluster */
  RD_ASM_BARRIER = 16, /* bar, barrier: a block-wide barrier in assembly */
  RD_ASM_WARP = 32,    /* shfl, vote, match, redux, activemask, elect, bar.warp, warp-wide mma/ldmatrix */
};
typedef struct {
  unsigned bi;      /* RD_BI bits: builtins read as written (a clone or the call site can renumber them) */
  unsigned fixed_bi; /* RD_BI bits read where no rewrite reaches: inline assembly (%tid, %ctaid...), implicit calls */
  unsigned regs;    /* RD_REG_* and RD_ASM_*: read or done through inline assembly */
  bool everything;  /* tfuse cannot tell what it reads */
  Vec shared;       /* Sym*: __shared__ variables it names */
  /* The first place that made it `everything` and why, for messages. */
  unsigned why_at;
  const char *why;
} Reads;

/* Adds to r what evaluating n may read (n: an expression, a statement, a body). */
void reads_of(Node *n, Reads *r);
/* What calling fn reads in its body (and what its body calls), cached per kernel. */
void reads_of_fn(Sym *fn, Reads *r);
/* What a call reads at its site beyond its written arguments: the default
 * arguments it leaves out (evaluated at the call).  def: each such
 * parameter's default expression, or NULL (Node*, one per left-out argument). */
void reads_of_defaults(Node *call, Reads *r, Vec *defs);
void reads_free(Reads *r);
/* What inline assembly `asm` (an N_ASM node) reads; false when its template
 * is not literal text tfuse can read (then r->everything).  reg: the first
 * special register or instruction that counts, for messages. */
bool reads_of_asm(Node *asm_stmt, Reads *r, const char **reg);
/* The bits of RD_BI the kernel's coarsening changes (seeds and rescaled
 * builtins), and the RD_REG_* / RD_ASM_* it changes or cannot split. */
unsigned reads_changed_bi(const Kernel *k);
unsigned reads_changed_regs(const Kernel *k);
/* Whether r reads anything the coarsening of k changes. */
bool reads_changed(const Kernel *k, const Reads *r);
/* What n runs without a call in the text, by the members it may run: a
 * local's or temporary's destructor; a local of a type tfuse cannot tell
 * (`T x` in a template: any constructor or destructor of the project); a
 * construction it cannot tell used as a value (`S<T>()`: any constructor,
 * conversion or destructor). */
typedef enum { IMPL_DTOR, IMPL_OBJECT, IMPL_ANY, IMPL_NONE } ImplicitKind;
ImplicitKind implicit_kind(const Node *n);
void reads_implicit(Node *n, Reads *r);
/* A member of the project of those kind ik may run that reads what the
 * coarsening of k changes, or NULL. */
Sym *implicit_reader(const Kernel *k, ImplicitKind ik);
/* Block mode: a local pointer of the kernel that views dynamic shared
 * memory through a call (`T *sdata = SharedMemory<T>();`, see effects.c);
 * copy r's is moved to share r.  Varying when the memory it views is. */
bool sym_is_dyn_shared_view(const Sym *s);
bool dyn_view_varying(const Sym *s);
/* Whether the pointer local p may point into the variable v; into some
 * __shared__ variable (`volatile float *v = sdata;`). */
bool sym_may_point_into(const Sym *p, const Sym *v);
bool sym_views_shared(const Sym *p);
/* A default argument's expression for parameter i of fn (from its
 * definition or a prototype), or NULL. */
Node *fn_param_default(Sym *fn, int i);

/* ===================== passes/legality.c ===================== */

/* Reports located errors for kernels that cannot be coarsened correctly
 * (DESIGN.md section 4).  Returns false if the kernel must be refused. */
bool legality_check(Unit *u, Kernel *k);

/* ===================== passes/promote.c ===================== */

/* Register promotion of owner-computed shared arrays (DESIGN.md sec. 6). */
typedef struct Promo {
  Sym *arr;
  const void **keys; /* per dimension: the thread coordinate of the owner's index */
  int *dims;         /* per dimension: the block dimension it runs along */
  char *index_text;  /* the first store's access, for messages */
  Vec accesses;      /* Node*: the accesses at the owner's index */
  bool per_copy;     /* one register per copy (else one per thread) */
  char **reg;        /* fuse.c: register names, per copy or [0] */
} Promo;

/* Sets Node.promo on every access at the owner's index of an array it
 * promotes (the outermost subscript of A[i]..[j]). */
void promote_analyze(Unit *u, Kernel *k, const Options *opt);

/* ===================== passes/fuse.c ===================== */

/* Rewrites the kernel's body (and signature) as K copies. */
bool fuse_kernel(Unit *u, Kernel *k, const Options *opt, EditList *el);

/* ===================== passes/macros.c ===================== */

/* Expands, in the text, the macro uses inside the coarsened kernels whose
 * expansion names a thread or block builtin or one of the kernel's own
 * variables (tfuse rewrites text, and a name spelled in a macro's body has
 * no text at the use), and host uses whose expansion launches a coarsened
 * kernel.  Each file of the project with such uses gets its new text in
 * `texts` (Source*, the file's real path: see Project.texts); returns
 * whether there was any. */
bool macros_expand_kernels(Unit *u, Vec *kernels, Vec *texts);
/* Whether a macro use left in the project may launch k through the macro
 * defined by the #define directive at `directive`, whose body holds a
 * launch of k at `at`: its expansion goes through that definition, or
 * tfuse cannot expand it and it names that macro, k, or another macro in
 * its body.  A use that launches k only in its arguments does not count:
 * launch.c rewrites that launch in place. */
bool macro_uses_may_launch(Unit *u, Kernel *k, unsigned directive, unsigned at);
/* The name of a macro used in [b, e) (its name there) whose expansion does
 * not stay inside an expression (a `;`, a brace, a top-level `,`), or NULL:
 * wrapping that text in a guard would not wrap an expression. */
const char *macro_escaping_expression(Unit *u, unsigned b, unsigned e);

/* ===================== passes/variants.c ===================== */

/* Parses -candidates (modes false: "2,4,8") or -tune-space (modes true:
 * "block.x:2,4 thread.y.consecutive:2"); appends Params* to out if not
 * NULL (factors of 1 are left out: the original is always a candidate). */
bool tune_space_parse(const char *spec, bool modes, Vec *out);
char *variant_label(const Params *p);
/* -factor auto: replaces kernel k by its variants (see variants.c). */
bool variants_emit(Unit *u, Kernel *k, const Options *opt, EditList *el);

/* ===================== passes/launch.c ===================== */

/* Rewrites every launch of the coarsened kernels in the file; with
 * `check`, each launch runs the original and the coarsened kernel under
 * the check runtime when TFUSE_CHECK is set. */
bool launch_rewrite(Unit *u, Vec *kernels, const Options *opt, EditList *el);
/* The original kernel (and its prototypes) under the name NAME__tf_orig,
 * after the coarsened one, under the comment given: for -check, and for
 * function pointers that hold the kernel (launch.c). */
void launch_keep_original(Unit *u, Kernel *k, EditList *el, const char *comment);
const char *original_name(const Kernel *k);
/* The parameters block mode puts first in the coarsened kernel: the
 * original grid extent along each coarsened dimension and, where an
 * extern __shared__ array is divided, the share's size;
 * `unsigned int __tf_grid_x, unsigned int __tf_dsmem`, without the names
 * where `named` is false. */
char *grid_params_text(const Kernel *k, bool named);
/* After a kernel's name at `off`: the offset of the `<<<` that follows it,
 * past template arguments (`k<T, 4><<<`), or 0 if no launch follows. */
unsigned launch_chevrons(const Source *src, unsigned off);
/* Skips a comment or a literal starting at i; returns the offset after it,
 * or i if none starts there. */
size_t skip_comment_or_literal(const char *t, size_t len, size_t i);
/* -factor auto: every launch of k (after variants_emit) becomes a dispatch
 * through the tuning runtime (runtime/include/tfuse/tune.h). */
bool launch_rewrite_auto(Unit *u, Kernel *k, EditList *el);

/* ===================== passes/coarsen.c ===================== */

/* Runs the analyses and rewrites of one kernel with its Params; false if
 * it is refused. */
bool coarsen_kernel(Unit *u, Kernel *k, const Options *opt, EditList *el);

#endif
