/* fuse.h: what passes/fuse.c shares with the files that plan and render
 * parts of its output: copies.c (the copies and their names), replicas.c
 * (the layout of replicated shared memory) and promote_emit.c (the
 * registers of promoted arrays).  Those three call nothing in fuse.c. */
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
                         into a temporary, and the temporary's name (fuse.c hoist_block_reductions) */
} Fuse;

/* An edit of the text a statement is rendered from: [off, off + len)
 * becomes text; seq keeps the order of sites at one offset. */
typedef struct {
  unsigned off, len;
  char *text;
  int seq;
} Site;

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

#endif
