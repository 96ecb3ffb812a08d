/* launch_int: what the files of launch rewriting share (launch.c: the
 * <<<>>> launches; reach.c: what a -check launch tracks; kernel_apis.c: the
 * runtime's functions that take a kernel; kernel_uses.c: every other use of
 * a kernel's name).  Only these files include it. */
#ifndef TFUSE_LAUNCH_INT_H
#define TFUSE_LAUNCH_INT_H

/* A range of the project's text, [b, e). */
typedef struct {
  unsigned b, e;
} Span;

/* Where a pointer value came from: a set of these bits. */
enum {
  PO_ARG = 1,      /* a pointer argument, or arithmetic on one */
  PO_VALUE = 2,    /* loaded from a by-value argument's bytes */
  PO_LOADED = 4,   /* loaded from memory a pointer argument points to (its table) */
  PO_GLOBAL = 8,   /* loaded from a __device__ variable's bytes */
  PO_UNTRACED = 16 /* anything else */
};

typedef struct {
  Unit *u;
  Kernel *k;
  Vec written;       /* Sym*: __device__ variables the kernel writes */
  Vec followed;      /* Sym*: __device__ variables holding pointers it writes through */
  unsigned long long tables; /* bit i: parameter i's elements hold pointers it writes through */
  bool values;       /* it writes through pointers in by-value arguments */
  const char *blind; /* the first store tfuse cannot trace, as words, or NULL */
  bool heap;         /* it allocates or frees device-heap memory (new, delete, malloc, free) */
  Vec seen_fns;      /* Sym*: helpers walked */
  Vec seen_locals;   /* Sym*: locals being classified (a cycle is resolved as nothing new) */
} Reach;

typedef enum {
  API_SETTER,
  API_SET_ATTRIBUTE,
  API_QUERY,
  API_NAME,
  API_LAUNCH,
  API_LAUNCH_EX,
} ApiKind;

typedef struct {
  const char *name;
  int kernel_arg; /* the kernel's position among the arguments */
  ApiKind kind;
} KernelApi;

enum { API_MAX_ARGS = 16 };

/* A call of one of kernel_apis with a kernel's name as its kernel argument. */
typedef struct {
  const KernelApi *api; /* NULL: the use is no such argument */
  unsigned b, e;        /* the call's own text, its name through `)`; e == 0: not in the file (a macro's body) */
  Span args[API_MAX_ARGS]; /* the arguments' text, trimmed */
  int nargs;
} ApiCall;

/* ---- site.c: the text of a launch site and the shapes a coarsened kernel serves ---- */

unsigned args_open(const Source *src, const Node *call, unsigned ce);
bool block_text_pure(const char *text);
bool callee_in_own_scope(const Kernel *k, const char *callee);
char *callee_renamed(const char *callee, const char *name, const char *to);
char *coarsened_block(const Kernel *k, const char *block, const char *site);
char *coarsened_grid(const Kernel *k, const char *grid);
Node *enclosing_function(Node *n);
void fallback_record(Buf *b, const Kernel *k, const char *site);
char *fit_condition(const Kernel *k, const char *addr, const char *block, bool threads, bool shares);
char *grid_extents(const Kernel *k, const char *grid);
bool has_launch_bounds(const Source *src, const Kernel *k);
bool in_statement_position(const Node *call);
bool is_address_use(const Node *n);
int kernel_params(Kernel *k, Node **out, int max);
Node *launch_config(Node *call);
int launch_dims(const Kernel *k, int *dims, int *factors);
char *launch_site(const Source *src, unsigned off);
unsigned launch_statement_end(Unit *u, Node *call, Kernel *k);
bool only_read_by_launches(Node *n, Sym *var);
unsigned skip_qualifier(const Source *src, unsigned off, unsigned end);
char *span_text(const Source *src, Span s);
int split_config(const Source *src, unsigned b, unsigned e, Node *const *args, int nargs, Span *parts, int max);
char *thread_serve_condition_of(const Kernel *k, const char *block);

/* ---- reach.c: what a -check launch tracks ---- */

/* Forgets the kernels an earlier launch_rewrite classified. */
Reach *kernel_reach(Unit *u, Kernel *k);
void reach_calls(Unit *u, Reach *r, unsigned at, Buf *track);
void reach_reset(void);

/* ---- kernel_apis.c: the runtime's functions that take a kernel ---- */

ApiCall api_call_of(const Unit *u, Node *n, const Kernel *k);
bool rewrite_api_use(Unit *u, const ApiCall *c, Kernel *k, unsigned at, bool check, EditList *el);
unsigned use_at(const Unit *u, const Node *n, const Kernel *k);

/* ---- chevrons.c: one <<<>>> launch rewritten ---- */

void add_block_launch(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned cb, unsigned ce,
                      const char *before_launch, const char *callee_as, const char *fallback, Buf *b);
void add_thread_dispatch(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned ce, const char *cond,
                         const char *callee, const char *fallback, const char *before, Buf *b);
bool callee_nameable(const Unit *u, const Kernel *k, const char *callee);
char *kernel_address(const Unit *u, const Kernel *k, const Node *call, const char *callee);
int launch_arg_texts(Unit *u, Node *call, unsigned ce, Span *out, int max);
int launch_parts(Unit *u, Node *call, Kernel *k, unsigned *cbp, unsigned *cep, Span *parts);
bool locate_launch_text(Unit *u, Node *call, Kernel *k);
char *never_served(Node *call, const Kernel *k);
bool rewrite_one(Unit *u, Node *call, Kernel *k, bool check, EditList *el);
char *thread_serve_condition(Node *call, const Kernel *k, const char *block);
bool threads_may_not_fit(const Unit *u, Node *call, Kernel *k, const char *block, const char *addr);

/* ---- kernel_uses.c: the other uses of a kernel's name ---- */

void bound_block_threads(Unit *u, Kernel *k, Vec *done, EditList *el);
bool check_unrewritten(Unit *u, Kernel *k, Vec *done, bool external);
void keep_original_for_uses(Unit *u, Kernel *k, EditList *el);
bool launches_kernel(Unit *u, const Node *call, const Kernel *k);
bool other_uses(Unit *u, Vec *kernels, bool pointers, bool check, EditList *el);
bool pointer_dispatch(Unit *u, Node *call, Vec *targets, EditList *el);
void pointer_targets(const Node *call, Vec *kernels, Vec *out);
bool some_launch_served(Unit *u, Kernel *k);

#endif
