/* effects_int: what the files of the effect model share (effects.c: writes,
 * calls and the functions tfuse knows; reads.c: reads of the coordinates
 * and shared memory, points-to; warp_helpers.c: helpers that compute with
 * warp-synchronous calls).  Only these files include it. */
#ifndef TFUSE_EFFECTS_INT_H
#define TFUSE_EFFECTS_INT_H

/* What a pointer may point into. */
typedef struct PointsTo {
  Vec syms;     /* Sym*: variables it may point into */
  bool memory;  /* memory no variable names (a pointer parameter's) */
  bool unknown; /* anything whose address escaped */
} PointsTo;

/* ---- effects.c ---- */

/* A set of Syms (Vec of Sym*): add once, and membership. */
void add_sym(Vec *v, Sym *s);
bool has_sym(const Vec *v, const Sym *s);
/* Whether a variable may hold a pointer (its type, or an array or record of them). */
bool holds_pointer(const Sym *s);
/* Marks the lambdas bound to locals under n (their bodies count at the calls). */
void mark_lambdas(Node *n);
/* Parameter i of function fn (NULL: none). */
Sym *param_sym(const Sym *fn, int i);
/* What pointer expression n may point into (adds to out). */
void pts_of(Node *n, PointsTo *out);
void pts_union(PointsTo *into, const PointsTo *from);
/* n without the implicit casts and parentheses around it. */
Node *strip_implicit(Node *n);

#endif
