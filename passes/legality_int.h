/* legality_int: what the files of legality share (legality.c: the walk of
 * a kernel's code and its callees; legality_base.c: refuse() and the
 * predicates every check uses; legality_cg.c: cooperative groups;
 * legality_kernel.c: the checks of the kernel as a whole).  Only these
 * files include it. */
#ifndef TFUSE_LEGALITY_INT_H
#define TFUSE_LEGALITY_INT_H

/* One kernel's check. */
typedef struct {
  Unit *u;
  Kernel *k;
  bool ok;
  Node *varying_ctl; /* innermost enclosing varying control, or NULL */
  Vec stack;         /* device functions being visited (recursion) */
  Vec checked;       /* device functions whose bodies were checked (each once) */
  Vec shared_refused; /* Sym*: replicated shared variables a refusal named */
  bool in_view_init;  /* walking the initializer of a dynamic shared view (`T *s = SharedMemory<T>();`) */
  Node *coalesced_stmt; /* the kernel's statement whose coalesced group was last checked (coalesced_site) */
  bool warp_shared_refused; /* thread mode: volatile shared memory was refused as warp-synchronous */
} Legal;

/* What a refusal of warp-synchronous code adds in thread mode. */
#define WARPS_KEPT_ONLY "; thread mode keeps warps whole only with -mapping stride along x alone"

/* ---- legality_base.c ---- */

bool after_varying_return(const Node *n);
const char *builtin_name(Builtin b);
bool cg_operators_known(Legal *L, const Node *call);
const char *changed_read_name(const Kernel *k, const Reads *r);
void check_defaults(Legal *L, Node *site, Node *call, Sym *in);
void check_helper_asm(Legal *L, Node *call, Sym *fn, Node *a);
const char *clone_obstacle(const Legal *L, const Sym *fn, const Node *bi);
bool is_callee_ref(Node *n);
bool lane_arithmetic(const Legal *L, const Node *n);
const char *line_of(const Unit *u, unsigned off);
bool mentions_threadidx(const Node *n);
/* A located error: the reason the kernel is refused (L->ok false). */
void refuse(Legal *L, unsigned off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool warps_kept(Legal *L);
const char *written_name(const Legal *L, const Node *f);

/* ---- legality_cg.c ---- */

void check_cg(Legal *L, Node *site, Node *call, Sym *fn, Sym *in);
const char *coalesced_site(Legal *L, Node *n);
Node *copy_tail_of(const Legal *L);
bool fn_holds_coalesced(const Sym *fn);
bool is_query_object(Node *n);

/* ---- legality_kernel.c ---- */

void check_constructs(Legal *L);
bool check_grid_sync(Legal *L, Node *n);
void check_outside_shared(Legal *L);
void check_shared_communication(Legal *L);
void check_skipped_lines(Legal *L, const Node *body);
void check_static_shared(Legal *L);
bool names_function(const Unit *u, const char *name);

/* ---- legality.c ---- */

void check_call(Legal *L, Node *site, Node *call, Sym *in);

#endif
