/* chevrons: one `k<<<grid, block[, smem[, stream]]>>>(args)` launch
 * rewritten.
 *
 * Contract: rewrite_one records the edit of one launch of a coarsened
 * kernel: block mode rescales the grid and passes the original extents
 * first, thread mode divides the block; where the coarsened kernel may not
 * serve the launch's shape (site.c's conditions), the launch dispatches to
 * the kept original.  With -check the launch runs the original and the
 * coarsened kernel from the same state and compares what they wrote
 * (reach.c says what to track).  A launch tfuse cannot read (its callee
 * not nameable, an overloaded kernel, text a macro hides) is refused at the
 * launch, naming the kernel. */
#include "passes.h"
#include "launch_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* -check: the checked launch, replacing the whole statement; where the
 * coarsened kernel may not serve the launch's shape, `if (!(served))` runs
 * the original alone first. */
static bool rewrite_checked(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned cb, EditList *el,
                            const char *site) {
  const Source *src = u->src;
  const char *t = src->text;
  unsigned end = launch_statement_end(u, call, k);
  if (!end)
    return false;
  char *callee = arena_strndup(t + call->begin, cb - call->begin);
  /* The original's callee: the kernel's name renamed (k<T> -> k__tf_orig<T>). */
  char *orig_callee = callee_renamed(callee, k->sym->name, original_name(k));
  if (!orig_callee) {
    error_at(call->begin, "cannot find the name of '%s' in this launch", k->sym->name);
    return false;
  }
  if (!callee_in_own_scope(k, callee)) {
    error_at(call->begin, "-check cannot route this launch of '%s': it names the kernel through a qualifier other "
                          "than its namespace's, where the kept original is not declared", k->sym->name);
    return false;
  }

  Reach *reach = kernel_reach(u, k);
  /* Arguments, evaluated once: simple ones as written, others in locals. */
  Node *params[64];
  int npar = kernel_params(k, params, 64);
  int first = 2; /* callee, configuration, then the arguments */
  Buf pre = {0}, args = {0}, plain = {0}, track = {0};
  int nargs = 0;
  for (int i = first; i < call->nkid; i++) {
    Node *a = call->kid[i];
    if (a->end <= a->begin)
      continue; /* a default argument */
    char *text = arena_strndup(t + a->begin, a->end - a->begin);
    char *use = text;
    if (node_has_side_effects(a)) {
      use = arena_printf("__tf_a%d", nargs);
      buf_printf(&pre, "auto %s = (%s); ", use, text);
    }
    buf_printf(&args, "%s%s", nargs ? ", " : "", use);
    buf_printf(&plain, "%s%s", nargs ? ", " : "", text);
    Sym *ps = nargs < npar ? params[nargs]->sym : NULL;
    if (ps && nargs < 64 && (reach->tables >> nargs & 1))
      buf_printf(&track, "__tf_check.track_table(%s, \"%s\"); ", use, ps->name);
    else if (ps && ps->is_pointer && !ps->pointee_const && ps->pointee_fp)
      /* a struct of floats or of doubles: compared by field, within TFUSE_CHECK_ULP */
      buf_printf(&track, "__tf_check.track_as(%s, \"%s\", %s, %d); ", use, ps->name,
                 ps->pointee_fp == 4 ? "TFUSE_CHECK_FLOAT" : "TFUSE_CHECK_DOUBLE", ps->pointee_fp);
    else if (ps && ps->is_pointer && !ps->pointee_const)
      buf_printf(&track, "__tf_check.track(%s, \"%s\"); ", use, ps->name);
    else if (ps && reach->values && !ps->is_pointer && (!ps->is_scalar || ps->type_dependent))
      buf_printf(&track, "__tf_check.track_value(%s, \"%s\"); ", use, ps->name);
    nargs++;
  }
  reach_calls(u, reach, call->begin, &track);
  char *smem = np > 2 ? span_text(src, parts[2]) : NULL;
  char *stream = np > 3 ? span_text(src, parts[3]) : NULL;
  /* A stream whose text may not be evaluated twice (`next_stream()`) is
   * evaluated once, before the capture test (check_on(stream)) that reads
   * it and the launch that uses it. */
  char *stream_once = stream && !block_text_pure(stream) ? stream : NULL;
  if (stream_once)
    stream = "__tf_stream_once";
  char *new_grid = k->p.mode == MODE_BLOCK ? coarsened_grid(k, "__tf_grid") : "__tf_grid";
  char *new_block = k->p.mode == MODE_THREAD ? coarsened_block(k, "__tf_block", site) : "__tf_block";
  char *extent = k->p.mode == MODE_BLOCK ? grid_extents(k, "__tf_grid") : NULL;
  const char *sep = extent && nargs ? ", " : "";
  char *cfg_checked = arena_printf("%s%s%s", np > 2 ? ", __tf_smem" : "", np > 3 ? ", __tf_stream" : "", "");
  char *cfg_plain = arena_printf("%s%s%s%s", np > 2 ? ", " : "", np > 2 ? smem : "", np > 3 ? ", " : "",
                                 np > 3 ? stream : "");
  char *ind = source_indent(src, call->begin);

  /* A shape the coarsened kernel may not serve runs the original alone. */
  char *cond = NULL;
  if (k->p.mode == MODE_THREAD) {
    cond = thread_serve_condition(call, k, "__tf_block");
  } else {
    char *addr = kernel_address(u, k, call, callee);
    if (threads_may_not_fit(u, call, k, "__tf_block", addr))
      cond = arena_printf("::tfuse_rt::serves_threads(%s, __tf_block, __tf_fb)", addr);
  }
  Buf b = {0};
  buf_puts(&b, "{ ");
  if (cond)
    fallback_record(&b, k, site);
  buf_printf(&b, "const dim3 __tf_grid = (%s); const dim3 __tf_block = (%s);", span_text(src, parts[0]),
             span_text(src, parts[1]));
  if (stream_once)
    buf_printf(&b, " const cudaStream_t __tf_stream_once = (%s);", stream_once);
  buf_puts(&b, "\n");
  if (cond) {
    buf_printf(&b, "%s  if (!(%s)) {\n", ind, cond);
    buf_printf(&b, "%s    if (::tfuse_rt::check_on()) tfuse_check_ran_original(\"%s\", \"%s\");\n", ind,
               k->sym->name, site);
    buf_printf(&b, "%s    %s<<<__tf_grid, __tf_block%s>>>(%s);\n", ind, orig_callee, cfg_plain,
               plain.data ? plain.data : "");
    buf_printf(&b, "%s  } else ", ind);
    k->dispatches++;
  } else {
    buf_printf(&b, "%s  ", ind);
  }
  if (reach->heap) {
    /* Run twice from one state, a kernel that frees device-heap memory
     * would free it twice: the coarsened kernel runs alone, unchecked. */
    buf_printf(&b, "{\n%s    if (::tfuse_rt::check_on()) tfuse_check_ran_once(\"%s\", \"%s\");\n", ind,
               k->sym->name, site);
  } else {
    /* The stream, where the launch names one, for the capture test
     * (check_on(stream)). */
    const char *on = np > 3 ? arena_printf("(%s)", stream) : "0";
    buf_printf(&b, "if (::tfuse_rt::check_on(%s)) {\n", on);
    if (np > 2)
      buf_printf(&b, "%s    const size_t __tf_smem = (%s);\n", ind, smem);
    if (np > 3)
      buf_printf(&b, "%s    const cudaStream_t __tf_stream = (%s);\n", ind, stream);
    if (pre.len)
      buf_printf(&b, "%s    %.*s\n", ind, (int)pre.len - 1, pre.data);
    buf_printf(&b, "%s    ::tfuse_rt::Check __tf_check(\"%s\", \"%s\", %s);\n", ind, k->sym->name, site,
               np > 3 ? "__tf_stream" : "0");
    if (track.len)
      buf_printf(&b, "%s    %.*s\n", ind, (int)track.len - 1, track.data);
    buf_printf(&b, "%s    %s<<<__tf_grid, __tf_block%s>>>(%s);\n", ind, orig_callee, cfg_checked,
               args.data ? args.data : "");
    buf_printf(&b, "%s    __tf_check.original_done();\n", ind);
    buf_printf(&b, "%s    if (__tf_check.again()) { %s<<<__tf_grid, __tf_block%s>>>(%s); __tf_check.again_done(); }\n",
               ind, orig_callee, cfg_checked, args.data ? args.data : "");
    buf_printf(&b, "%s    %s<<<%s, %s%s>>>(%s%s%s);\n", ind, callee, new_grid, new_block, cfg_checked,
               extent ? extent : "", sep, args.data ? args.data : "");
    buf_printf(&b, "%s    __tf_check.coarsened_done();\n", ind);
    buf_printf(&b, "%s  } else {\n", ind);
  }
  buf_printf(&b, "%s    %s<<<%s, %s%s>>>(%s%s%s);\n", ind, callee, new_grid, new_block, cfg_plain,
             extent ? extent : "", sep, plain.data ? plain.data : "");
  buf_printf(&b, "%s  }\n%s}", ind, ind);
  edit_replace(el, call->begin, end - call->begin, b.data);
  buf_free(&b);
  buf_free(&pre);
  buf_free(&args);
  buf_free(&plain);
  buf_free(&track);
  return true;
}

bool locate_launch_text(Unit *u, Node *call, Kernel *k) {
  const Source *src = u->src;
  const char *t = src->text, *name = k->sym->name;
  size_t nl = strlen(name);
  unsigned b = call->loc;
  /* A qualified name (`img::scale<<<...>>>`, `::scale`, a using's
   * namespace) is the launch's own text: its callee is copied whole. */
  unsigned at = call->in_macro || call->end <= call->begin ? call->begin
                                                           : skip_qualifier(src, call->begin, call->end);
  bool macro_arg = call->in_macro || call->end <= call->begin || b < call->begin || b >= call->end ||
                   strncmp(t + at, name, nl) != 0 || ident_char(t[at + nl]);
  if (!macro_arg)
    return true;
  if (b + nl > src->len || strncmp(t + b, name, nl) != 0 || (b > 0 && ident_char(t[b - 1])))
    return false;
  unsigned p = launch_chevrons(src, b + (unsigned)nl);
  if (!p)
    return false;
  const char *close = strstr(t + p, ">>>");
  if (!close)
    return false;
  unsigned lp = source_skip_space(src, (unsigned)(close - t) + 3);
  if (lp >= src->len || t[lp] != '(')
    return false;
  unsigned e = text_match(src, lp, (unsigned)src->len);
  if (e <= lp || t[e - 1] != ')')
    return false;
  call->begin = b;
  call->end = e;
  call->in_macro = false;
  call->launch_in_macro_arg = true;
  return true;
}

static bool source_starts_with(const Source *src, unsigned off, const char *word) {
  size_t n = strlen(word);
  return off + n <= src->len && !strncmp(src->text + off, word, n);
}

/* The number of arguments in the angle brackets opening at `open` (the
 * commas outside nested brackets and parentheses, plus one), -1 where they
 * do not close or hold a pack (`...`). */
static int angle_arity(const char *open) {
  int depth = 0, n = 1;
  for (const char *p = open; *p; p++) {
    if (*p == '<' || *p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == '>' || *p == ')' || *p == ']' || *p == '}') {
      if (--depth == 0)
        return *p == '>' ? n : -1;
    } else if (*p == ',' && depth == 1)
      n++;
    else if (!strncmp(p, "...", 3))
      return -1;
  }
  return -1;
}

static bool name_overloaded(const Unit *u, const Kernel *k) {
  for (int i = 0; i < u->functions.len + u->fn_decls.len; i++) {
    Node *f = i < u->functions.len ? u->functions.items[i] : u->fn_decls.items[i - u->functions.len];
    if (f->sym && f->sym != k->sym && f->sym->name && !strcmp(f->sym->name, k->sym->name))
      return true;
  }
  return false;
}

/* Whether the callee of a launch of k names one function (the prelude's
 * launch checks and the opt-in of dyn_shared_opt_in take its address): not
 * where another function of the unit has its name (an overload set; but
 * see kernel_address), nor where a template kernel's launch deduces some of
 * its arguments (`k` or `k<256>` of `template <int B, class T>`: no
 * function until deduced). */
bool callee_nameable(const Unit *u, const Kernel *k, const char *callee) {
  if (name_overloaded(u, k))
    return false;
  const Source *src = u->src;
  if (!source_starts_with(src, k->fn->begin, "template"))
    return true;
  const char *params = strchr(src->text + k->fn->begin, '<');
  const char *args = strchr(callee, '<');
  int want = params ? angle_arity(params) : -1;
  return args && want > 0 && angle_arity(args) == want;
}

/* The address of the coarsened kernel at a launch, for the prelude's
 * checks: the callee, or where its name is also a host function's (llm.c
 * names the launching function as its kernel) the callee cast to the
 * coarsened kernel's type, `static_cast<void (*)(unsigned int
 * __tf_grid_x, float *a, int n)>(k)`, spelled from the grid parameters
 * fuse.c adds and the parameters as written (names are allowed in a
 * function type).  Only for a kernel of the global namespace that is not a
 * template, defined before the launch (its parameters' types are declared
 * there), whose parameters hold no default argument, comment or macro
 * line; else NULL. */
char *kernel_address(const Unit *u, const Kernel *k, const Node *call, const char *callee) {
  if (callee_nameable(u, k, callee))
    return (char *)callee;
  const Source *src = u->src;
  const char *usr = k->sym->usr, *scope = usr ? strstr(usr, "@F@") : NULL;
  bool global = scope && !memchr(usr, '@', scope - usr); /* `c:@F@k`, `c:file.cu@F@k`: no namespace or class */
  if (!name_overloaded(u, k) || source_starts_with(src, k->fn->begin, "template") || strstr(callee, "::") ||
      !unit_precedes(u, k->fn->end, call->begin) || !global)
    return NULL;
  unsigned open = k->fn->loc, close = fn_params_close(src, k->fn);
  while (open < close && src->text[open] != '(')
    open++;
  if (close >= src->len || close <= open)
    return NULL;
  char *params = arena_strndup(src->text + open + 1, close - open - 1);
  for (const char *p = params; *p; p++)
    if (*p == '=' || *p == '#' || *p == '\\' || (*p == '/' && (p[1] == '/' || p[1] == '*')))
      return NULL;
  bool none = fn_params_empty(src, k->fn, close);
  return arena_printf("static_cast<void (*)(%s%s%s)>(%s)", grid_params_text(k, false), none ? "" : ", ",
                      none ? "" : params, callee);
}

/* Block mode, before the launch: the prelude's checks that the merged block
 * fits the device (block_fits: its threads, now K logical blocks' work
 * each) and, for a template kernel whose launch deduces its arguments and
 * so cannot opt in above 48 KB, that its K shares of dynamic shared
 * memory fit without (dyn_shared_unnamed).  No thread check where it
 * cannot fail (a block clang evaluates to 256 threads or fewer: 255
 * registers each still fit; a kernel with __launch_bounds__: ptxas fits
 * it, as bound_block_threads below makes it for constant blocks), nor
 * where the launch does not name the kernel (addr, kernel_address's, is
 * NULL) or the block extent has effects. */
bool threads_may_not_fit(const Unit *u, Node *call, Kernel *k, const char *block, const char *addr) {
  long threads = call->nkid > 1 ? call->kid[1]->block_threads : 0;
  bool fits = (threads > 0 && threads <= 256) || has_launch_bounds(u->src, k);
  return addr && !fits && block_text_pure(block);
}

static void block_launch_checks(const Unit *u, Node *call, Kernel *k, Span *parts, const char *addr,
                                const char *site, Buf *b) {
  char *block = span_text(u->src, parts[1]);
  if (threads_may_not_fit(u, call, k, block, addr))
    buf_printf(b, "::tfuse_rt::block_fits(%s, %s, %du, \"%s\", \"%s\"); ", addr, block, k->p.factor,
               k->sym->name, site);
  if (k->dyn_shared && !addr)
    buf_printf(b, "::tfuse_rt::dyn_shared_unnamed(%du * (size_t)__tf_dsmem, %du, \"%s\", \"%s\"); ", k->p.factor,
               k->p.factor, k->sym->name, site);
}

/* Whether the block of a launch has extents clang evaluates and that hold
 * when the launch runs (a dim3 variable nothing else writes): dims. */
static bool constant_block(Node *call, long dims[3]) {
  Node *cfg = call->nkid > 1 ? call->kid[1] : NULL;
  if (!cfg || cfg->block_threads <= 0)
    return false;
  if (cfg->block_var) {
    Node *f = call;
    while (f && f->kind != N_FUNC)
      f = f->parent;
    if (!f || !only_read_by_launches(f, cfg->block_var))
      return false;
  }
  memcpy(dims, cfg->block_dim, sizeof cfg->block_dim);
  return true;
}

/* Thread mode: why the coarsened kernel can never serve this launch (a
 * constant block extent K does not divide, or that leaves part of a warp
 * to the kernel's warp-synchronous code), or NULL. */
char *never_served(Node *call, const Kernel *k) {
  long dims[3];
  if (k->p.mode != MODE_THREAD || !constant_block(call, dims))
    return NULL;
  int ds[3], f[3], n = launch_dims(k, ds, f);
  for (int i = 0; i < n; i++) {
    long e = dims[ds[i]];
    if (e % f[i] != 0)
      return arena_printf("blockDim.%c = %ld, which the factor %d does not divide", "xyz"[ds[i]], e, f[i]);
    if (k->whole_warps && e / f[i] % 32 != 0)
      return arena_printf("blockDim.%c = %ld, whose 1/%d is not whole warps, which the kernel's warp-synchronous "
                          "code needs", "xyz"[ds[i]], e, f[i]);
  }
  return NULL;
}

/* Thread mode: the run-time condition under which the coarsened kernel
 * serves a launch whose block is the local `block` (DESIGN-NOTES,
 * "Dispatch"): K divides each coarsened extent, and leaves whole warps
 * where the kernel keeps warp-synchronous code.  NULL where every launch
 * this site makes is served (constant extents that divide). */
char *thread_serve_condition(Node *call, const Kernel *k, const char *block) {
  long dims[3];
  if (constant_block(call, dims) && !never_served(call, k))
    return NULL;
  return thread_serve_condition_of(k, block);
}

/* Block mode: the run-time condition under which the merged block fits
 * the device (what block_launch_checks would stop for): its threads'
 * registers (serves_threads) and K dynamic shares (serves_shared, with
 * the kernel's address; serves_shared_unnamed, without).  NULL where
 * nothing needs checking. */
static char *block_serve_condition(const Unit *u, Node *call, Kernel *k, Span *parts, const char *addr) {
  char *block = span_text(u->src, parts[1]);
  /* K shares of a constant size within 48 KB need no check (nor an
   * opt-in). */
  long bytes = call->nkid > 1 ? call->kid[1]->dyn_bytes : 0;
  bool small = bytes > 0 && (bytes + 15) / 16 * 16 * k->p.factor <= 48 * 1024;
  return fit_condition(k, addr, block, threads_may_not_fit(u, call, k, block, addr), k->dyn_shared && !small);
}

/* Block mode: the declarations and the launch itself, with the grid (and
 * the dynamic shared size) evaluated once:
 *   const dim3 __tf_grid = (G); [const unsigned int __tf_dsmem = ...;]
 *   k<<<coarsen_grid(__tf_grid, d, K), B[, K * __tf_dsmem][, S]>>>(grid_extent(__tf_grid, d)[, __tf_dsmem], args)
 * A kernel whose extern __shared__ array is replicated takes each logical
 * block's share, the launch's size rounded up to 16 bytes, and the launch
 * asks for K shares (opting in above 48 KB where the kernel can be named).
 * Where the merged block may not fit the device (block_serve_condition)
 * and `fallback` names the original at this launch, the launch becomes a
 * dispatch that runs the original on the original grid where it does not:
 *   static Fallback __tf_fb = {...}; [const size_t __tf_smem = (S);
 *   const unsigned int __tf_dsmem = dyn_share(__tf_smem);]
 *   if (COND) { [opt-in;] k<<<...>>>(...); } else ORIGINAL<<<__tf_grid, B[, S][, ST]>>>(args)
 * (without `fallback`, the prelude's checks stop the program instead). */
void add_block_launch(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned cb, unsigned ce,
                             const char *before_launch, const char *callee_as, const char *fallback, Buf *b) {
  const Source *src = u->src;
  const char *t = src->text;
  unsigned lp = args_open(src, call, ce);
  unsigned rp = text_match(src, lp, call->end) - 1;
  bool no_args = source_skip_space(src, lp + 1) >= rp;
  buf_printf(b, "const dim3 __tf_grid = (%s); ", span_text(src, parts[0]));
  const char *callee = callee_as ? callee_as : span_text(src, (Span){call->begin, cb - 3});
  char *addr = kernel_address(u, k, call, callee);
  char *site = launch_site(src, call->begin);
  char *cond = fallback ? block_serve_condition(u, call, k, parts, addr) : NULL;
  if (cond) {
    fallback_record(b, k, site);
    if (k->dyn_shared)
      buf_printf(b, "const size_t __tf_smem = (%s); const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); ",
                 np >= 3 ? span_text(src, parts[2]) : "0");
    buf_printf(b, "if (%s) { ", cond);
    if (k->dyn_shared && addr)
      buf_printf(b, "::tfuse_rt::dyn_shared_opt_in(%s, %du * (size_t)__tf_dsmem); ", addr, k->p.factor);
    k->dispatches++;
  } else {
    if (k->dyn_shared) {
      buf_printf(b, "const unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(%s); ",
                 np >= 3 ? span_text(src, parts[2]) : "0");
      if (addr)
        buf_printf(b, "::tfuse_rt::dyn_shared_opt_in(%s, %du * (size_t)__tf_dsmem); ", addr, k->p.factor);
    }
    block_launch_checks(u, call, k, parts, addr, site, b);
  }
  buf_puts(b, before_launch);
  if (callee_as)
    buf_printf(b, "%s<<<", callee_as);
  else
    buf_add(b, t + call->begin, cb - call->begin);
  if (!k->dyn_shared) {
    /* Block, size and stream as written, line breaks kept. */
    buf_printf(b, "%s,", coarsened_grid(k, "__tf_grid"));
    buf_add(b, t + parts[1].b, lp + 1 - parts[1].b);
  } else {
    buf_printf(b, "%s, %s, %du * (size_t)__tf_dsmem", coarsened_grid(k, "__tf_grid"), span_text(src, parts[1]),
               k->p.factor);
    if (np >= 4)
      buf_printf(b, ", %s", span_text(src, parts[3]));
    buf_puts(b, ">>>(");
  }
  buf_printf(b, "%s%s%s", grid_extents(k, "__tf_grid"), k->dyn_shared ? ", __tf_dsmem" : "", no_args ? "" : ", ");
  buf_add(b, t + lp + 1, call->end - lp - 1);
  if (!cond)
    return;
  buf_printf(b, "; } else %s%s<<<__tf_grid, %s", before_launch, fallback, span_text(src, parts[1]));
  if (np >= 3)
    buf_printf(b, ", %s", k->dyn_shared ? "__tf_smem" : span_text(src, parts[2]));
  if (np >= 4)
    buf_printf(b, ", %s", span_text(src, parts[3]));
  buf_puts(b, ">>>");
  buf_add(b, t + lp, call->end - lp);
}

/* The kept original's callee at this launch (`k<T>` -> `k__tf_orig<T>`),
 * which a dispatch runs where the coarsened kernel cannot serve the
 * launch; NULL where the original cannot be named there (a qualifier
 * other than the kernel's own namespaces). */
static char *fallback_callee(const Source *src, const Kernel *k, const Node *call, unsigned cb) {
  char *callee = span_text(src, (Span){call->begin, cb - 3});
  if (!callee_in_own_scope(k, callee))
    return NULL;
  return callee_renamed(callee, k->sym->name, original_name(k));
}

/* Thread mode, where a launch's block may not be served
 * (thread_serve_condition): a dispatch on the block, evaluated once,
 * between the coarsened kernel and the original:
 *   { static Fallback __tf_fb = {...}; const dim3 __tf_block = (B);
 *     if (serves_block(__tf_block, d, K, warps, __tf_fb))
 *       k<<<G, coarsen_block(__tf_block, d, K, ...)[, S[, ST]]>>>(args);
 *     else
 *       ORIGINAL<<<G, __tf_block[, S[, ST]]>>>(args); }
 * `before` goes before each launch ("return " in a lambda); `callee` is
 * the coarsened kernel's callee text. */
void add_thread_dispatch(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned ce, const char *cond,
                                const char *callee, const char *fallback, const char *before, Buf *b) {
  const Source *src = u->src;
  const char *t = src->text;
  unsigned lp = args_open(src, call, ce);
  char *site = launch_site(src, call->begin);
  char *ind = source_indent(src, call->begin);
  Buf rest = {0};
  for (int p = 2; p < np; p++)
    buf_printf(&rest, ", %s", span_text(src, parts[p]));
  char *args = arena_strndup(t + lp, call->end - lp);
  char *grid = span_text(src, parts[0]);
  fallback_record(b, k, site);
  buf_printf(b, "const dim3 __tf_block = (%s);\n", span_text(src, parts[1]));
  buf_printf(b, "%s  if (%s)\n", ind, cond);
  buf_printf(b, "%s    %s%s<<<%s, %s%s>>>%s;\n", ind, before, callee, grid, coarsened_block(k, "__tf_block", site),
             rest.data ? rest.data : "", args);
  buf_printf(b, "%s  else\n%s    %s%s<<<%s, __tf_block%s>>>%s;\n%s", ind, ind, before, fallback, grid,
             rest.data ? rest.data : "", args, ind);
  buf_free(&rest);
  k->dispatches++;
}

/* Block mode, a launch that is not a statement of its own (in an
 * expression, or a macro's argument): the grid is evaluated once inside a
 * lambda called on the spot, which is an expression wherever the launch
 * was: `[&] { const dim3 __tf_grid = (G); return k<<<...>>>(...); }()`. */
static bool rewrite_expression(Unit *u, Node *call, Kernel *k, Span *parts, int np, unsigned cb, unsigned ce,
                               EditList *el) {
  Buf b = {0};
  buf_puts(&b, "[&] { ");
  char *fallback = fallback_callee(u->src, k, call, cb);
  char *cond = k->p.mode == MODE_THREAD && fallback ? thread_serve_condition(call, k, "__tf_block") : NULL;
  if (cond) {
    add_thread_dispatch(u, call, k, parts, np, ce, cond, span_text(u->src, (Span){call->begin, cb - 3}), fallback,
                        "return ", &b);
    buf_puts(&b, "}()");
  } else {
    add_block_launch(u, call, k, parts, np, cb, ce, "return ", NULL, fallback, &b);
    buf_puts(&b, "; }()");
  }
  edit_replace(el, call->begin, call->end - call->begin, b.data);
  buf_free(&b);
  return true;
}

/* Finds `<<<` and `>>>` in the text of the call (*cb just past the one,
 * *ce at the other) and splits the configuration; returns the number of
 * its parts, or 0 after an error. */
int launch_parts(Unit *u, Node *call, Kernel *k, unsigned *cbp, unsigned *cep, Span *parts) {
  const char *t = u->src->text;
  Node *cfg = call->kid[1];
  const char *open = strstr(t + call->begin, "<<<");
  if (!open || (unsigned)(open - t) >= call->end) {
    error_at(call->begin, "cannot find '<<<' in this launch of '%s'", k->sym->name);
    return 0;
  }
  unsigned cb = (unsigned)(open - t) + 3;
  unsigned ce = cfg->end >= 3 ? cfg->end - 3 : cb;
  if (strncmp(t + ce, ">>>", 3) != 0) {
    const char *close = strstr(t + cb, ">>>");
    if (!close) {
      error_at(call->begin, "cannot find '>>>' in this launch of '%s'", k->sym->name);
      return 0;
    }
    ce = (unsigned)(close - t);
  }
  int first = call_first_arg(cfg);
  int np = split_config(u->src, cb, ce, cfg->kid + first, cfg->nkid - first, parts, 4);
  if (np < 2) {
    error_at(call->begin, "launch of '%s' needs a grid and a block%s", k->sym->name, "");
    return 0;
  }
  *cbp = cb;
  *cep = ce;
  return np;
}

/* The arguments' text of a launch whose `>>>` is at ce; their number. */
int launch_arg_texts(Unit *u, Node *call, unsigned ce, Span *out, int max) {
  const Source *src = u->src;
  unsigned lp = args_open(src, call, ce);
  if (lp >= call->end || source_skip_space(src, lp + 1) >= call->end - 1)
    return 0;
  return split_config(src, lp + 1, call->end - 1, call->nkid > 2 ? call->kid + 2 : NULL,
                      call->nkid > 2 ? call->nkid - 2 : 0, out, max);
}

bool rewrite_one(Unit *u, Node *call, Kernel *k, bool check, EditList *el) {
  const Source *src = u->src;
  if (!locate_launch_text(u, call, k)) {
    error_at(call->begin, "launch of '%s' inside a macro's body cannot be rewritten; expand it by hand",
             k->sym->name);
    return false;
  }
  unsigned cb, ce;
  Span parts[4];
  int np = launch_parts(u, call, k, &cb, &ce, parts);
  if (!np)
    return false;
  char *site = launch_site(src, call->begin);
  if (check && call->launch_in_macro_arg) {
    error_at(call->begin, "-check cannot route a launch of '%s' written in a macro's argument; expand the macro "
                          "by hand", k->sym->name);
    return false;
  }
  if (check && k->dyn_shared) {
    error_at(call->begin, "-check cannot yet route a launch of '%s', whose dynamic shared memory is divided "
                          "among the logical blocks", k->sym->name);
    return false;
  }
  /* K shares of a constant size: no GPU gives a block more than 227 KB
   * (232,448 bytes: sm_90 and sm_100 with opt-in), so such a launch could
   * never run. */
  Node *cfg = call->kid[1];
  long share = (cfg->dyn_bytes + 15) / 16 * 16;
  if (k->p.mode == MODE_BLOCK && k->dyn_shared && cfg->dyn_bytes > 0 && share * k->p.factor > 232448) {
    error_at(call->begin, "launch of '%s' asks for %ld bytes of dynamic shared memory per block; block mode gives "
                          "each of its %d logical blocks a share, %ld bytes in all, over the 227 KB (232,448 "
                          "bytes) the largest GPUs give a block; use a smaller -factor", k->sym->name,
             cfg->dyn_bytes, k->p.factor, share * k->p.factor);
    return false;
  }
  if (check)
    return rewrite_checked(u, call, k, parts, np, cb - 3, el, site); /* cb - 3: at `<<<` */
  /* Thread mode, a block K divides (constant): the block extent rescaled
   * in place.  Else a dispatch between the coarsened kernel and the
   * original, on the block. */
  char *fallback = fallback_callee(src, k, call, cb);
  char *cond = k->p.mode == MODE_THREAD && fallback ? thread_serve_condition(call, k, "__tf_block") : NULL;
  if (k->p.mode == MODE_THREAD && !cond) {
    char *block = span_text(src, parts[1]);
    edit_replace(el, parts[1].b, parts[1].e - parts[1].b, arena_printf(" %s", coarsened_block(k, block, site)));
    return true;
  }

  /* Block mode: the grid is used twice (new grid, original extent), so it
   * is evaluated once into a local of a new block around the launch. */
  if (call->launch_in_macro_arg || !in_statement_position(call))
    return rewrite_expression(u, call, k, parts, np, cb, ce, el);
  unsigned end = launch_statement_end(u, call, k);
  if (!end)
    return false;
  Buf b = {0};
  buf_puts(&b, "{ ");
  if (cond) {
    add_thread_dispatch(u, call, k, parts, np, ce, cond, span_text(src, (Span){call->begin, cb - 3}), fallback, "",
                        &b);
    buf_puts(&b, "}");
  } else {
    add_block_launch(u, call, k, parts, np, cb, ce, "", NULL, fallback, &b);
    buf_puts(&b, "; }");
  }
  edit_replace(el, call->begin, end - call->begin, b.data);
  buf_free(&b);
  return true;
}
