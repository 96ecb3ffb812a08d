/* fuse.h: what the files of the kernel's emission share: fuse.c (the
 * kernel: its signature, body and prototypes, the entry point), emit.c
 * (its statements for the copies), render.c (a range of text as a copy
 * writes it, helpers' clones, the statements' facts and guards), and the
 * files that plan parts of the output: copies.c (the copies and their
 * names), replicas.c (the layout of replicated shared memory) and
 * promote_emit.c (the registers of promoted arrays).  Those three call
 * nothing of the other three. */
#ifndef TFUSE_FUSE_H
#define TFUSE_FUSE_H

#include "passes.h"

/* A copy, or a group of copies: its index r[d] along each dimension d in
 * `mask`; the copies of a group differ only along the coarsened dimensions
 * outside it.  mask 0 is the rendering emitted once, for all copies.  With
 * one dimension, mask is that dimension's bit and r[dim] runs over 0..K-1;
 * with several, a statement whose vmask is {x} is emitted once per rx. */
typedef struct {
  unsigned mask;
  int r[3];
} Copy;

typedef struct {
  Unit *u;
  Kernel *k;
  const Source *src;
  int K;
  bool multi;     /* several coarsened dimensions */
  unsigned all;   /* the coarsened dimensions */
  int kd[3];      /* the factor along each dimension (1: not coarsened) */
  Buf out;
  bool first;     /* the next piece follows a gap copied from the input */
  const char *indent; /* indentation of a braced body's pieces, or NULL */
  const char *body_head; /* a statement to put first in the next body */
  int label_seq, pred_seq, hoist_seq;
  bool failed;
  Sym *probe_anchor;  /* the static shared size probe follows this variable's declaration */
  const char *probe;  /* ... and is this static_assert */
  bool probe_placed;  /* ... where the declaration was emitted statement by statement */
  Vec reduced;        /* Node*, char* in turn: thread mode's block reductions computed before their statement
                         into a temporary, and the temporary's name (render.c hoist_block_reductions) */
} Fuse;

/* An edit of the text a statement is rendered from: [off, off + len)
 * becomes text; seq keeps the order of sites at one offset. */
typedef struct {
  unsigned off, len;
  char *text;
  int seq;
} Site;

/* ---- what fuse.c, render.c and emit.c share ---- */

/* Where a statement is emitted: the predicates of the copies' guards. */
typedef struct {
  Node *region_stmt; /* the predicated `if` that opened this region */
  char **pred;      /* per copy: a guard expression, or NULL for "true" */
  bool any_true;    /* some copy is known to be live here */
  bool live_active; /* copies may have returned: AND their live flags */
  int region;       /* predicate region depth */
} Ctx;

/* What a statement does, for its guards (render.c, stmt_facts). */
typedef struct {
  bool effects;       /* stores to memory, effectful or user calls */
  bool unsafe_load;   /* a load whose address depends on the copy */
  bool any_load;
  bool has_loop;
  Vec written;        /* Sym*: locals written */
} Facts;

/* The copy of uniform text. */
static const Copy uniform_copy = {0};

/* The dimensions along which a node varies. */
static inline unsigned node_dims(Fuse *F, const Node *n) { return F->multi ? n->vmask : n->varying ? F->all : 0; }

/* ---- copies.c ---- */

unsigned sym_dims(Fuse *F, const Sym *s);
int ngroups(Fuse *F, unsigned mask);
Copy group_at(Fuse *F, unsigned mask, int i);
int group_index(Fuse *F, unsigned mask, Copy c);
char *copy_suffix(Fuse *F, unsigned mask, Copy c);
/* Copy c's name of the varying variable s (`e_1`, `e_x1y0`; `e__tf1` if taken). */
const char *copy_name(Fuse *F, Sym *s, Copy c);
void add_site(Vec *sites, unsigned off, unsigned len, char *text);

/* ---- replicas.c ---- */

/* -layout interleaved: sets Sym.ilv on the shared arrays laid out so. */
void plan_interleave(Fuse *F, Node *body, bool report);
char *interleaved_decl(Fuse *F, Node *decl);
void interleaved_sites(Fuse *F, Node *ref, unsigned e, Copy c, Vec *sites);
char *dyn_shared_copies(Fuse *F, Sym *sh, const char *indent);
bool is_dyn_replica(const Sym *s);
/* Block mode: the static_assert on the static shared size (F->probe). */
void plan_shared_probe(Fuse *F, Node *body);

/* ---- promote_emit.c ---- */

unsigned promo_dims(Fuse *F, const Promo *pr);
const char *promo_reg(Fuse *F, Promo *pr, Copy c);
char *promo_decl(Fuse *F, Sym *arr);

/* ---- render.c ---- */

char *any_of(Fuse *F, const Ctx *ctx);
void emit_clones(Fuse *F, EditList *el);
bool facts_need_guard(Fuse *F, const Facts *f, const Ctx *ctx);
Facts facts_of(Fuse *F, Node *n);
char *group_guard(Fuse *F, const Ctx *ctx, Copy g);
unsigned guard_dims(Fuse *F, const Ctx *ctx);
char *guard_of(Fuse *F, const Ctx *ctx, Copy c);
void hoist_block_reductions(Fuse *F, Node *s);
const char *indent_of(Fuse *F, Node *s);
bool index_varying(Node *sub);
void piece(Fuse *F, const char *indent, const char *text);
char *render(Fuse *F, Node *n, Copy c);
char *render_ex(Fuse *F, Node *root, unsigned b, unsigned e, Copy c, int ret_label, Vec *extra);
char *render_replacing(Fuse *F, Node *stmt, Node *part, const char *text, Copy c);
Site *replace_site(Node *part, const char *text);
Node *subscript_base(Node *n);
bool text_is_operand(const Source *src, const Node *n, const char *open, const char *close);

/* ---- emit.c ---- */

void emit_stmt(Fuse *F, Node *s, Ctx *ctx);

#endif
