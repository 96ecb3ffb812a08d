/* launch: rewrites the launch sites of coarsened kernels.
 *
 * Contract: requires fuse_kernel on every kernel in `kernels` (they must
 * agree about K); records one edit per `k<<<grid, block[, smem[, stream]]>>>(args)`
 * launch of those kernels in the file (DESIGN.md section 5).  The new
 * extents are computed from the user's own expressions by helpers of the
 * prelude, so grid and block may be ints, dim3 variables or dim3(...).
 *
 *   block mode:  k<<<g, b>>>(x);
 *            ->  { const dim3 __tf_grid = (g); k<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), b>>>(
 *                  ::tfuse_rt::grid_extent(__tf_grid, 0), x); }
 *   thread mode: k<<<g, b>>>(x);
 *            ->  k<<<g, ::tfuse_rt::coarsen_block(b, 1, 4u, "k", "file.cu:12")>>>(x);
 *
 * With -check the original kernel is kept as k__tf_orig, and a launch
 * becomes (runtime/include/tfuse/check.h):
 *   { const dim3 __tf_grid = (g); const dim3 __tf_block = (b);
 *     if (::tfuse_rt::check_on()) {
 *       ::tfuse_rt::Check __tf_check("k", "file.cu:12", 0);
 *       __tf_check.track(out, "out");           (each pointer to non-const)
 *       __tf_check.track_value(p, "p");         (what the kernel writes beyond
 *       __tf_check.track_table(rows, "rows");    its pointer arguments: see
 *       __tf_check.track_symbol(::g, "g");       kernel_reach, below)
 *       __tf_check.blind(TFUSE_CHECK_UNTRACED, "...");
 *       k__tf_orig<<<__tf_grid, __tf_block>>>(out, x);
 *       __tf_check.original_done();
 *       k<<<new grid, new block>>>(out, x);
 *       __tf_check.coarsened_done();
 *     } else {
 *       k<<<new grid, new block>>>(out, x);
 *     } }
 * Arguments with side effects are evaluated once, into `auto` locals.
 *
 * Every other use of a coarsened kernel's name is a function pointer's
 * value (the original is kept, and launches through pointers dispatch on
 * it), a kernel argument of the runtime's functions (cudaFuncGetAttributes,
 * cudaFuncSetAttribute, the occupancy calculators, cudaLaunchKernel,
 * cudaLaunchCooperativeKernel, cudaLaunchKernelEx: rewritten so that they
 * describe and launch the logical kernel, see kernel_apis), or an error at
 * the name, naming the kernel.  Each check and each error is about the
 * kernels in `kernels` alone, and nothing is left from an earlier call, so
 * the driver may call this with one kernel to learn whether its launches
 * can be rewritten, and again with the kernels that can.
 *
 * This file holds the entry points (launch_rewrite, launch_rewrite_auto);
 * the work is in site.c (a launch site's text, the shapes a coarsened
 * kernel serves), chevrons.c (one <<<>>> launch), reach.c (what a -check
 * launch tracks), kernel_apis.c (the runtime's functions that take a
 * kernel) and kernel_uses.c (every other use of a kernel's name), which
 * share launch_int.h.
 */
#include "passes.h"
#include "launch_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool launch_rewrite(Unit *u, Vec *kernels, const Options *opt, EditList *el) {
  reach_reset(); /* kernels of an earlier call (or project) may share addresses with these */
  bool check = opt->check;
  bool ok = true;
  /* What an earlier call recorded (the driver may try a kernel alone first). */
  for (int j = 0; j < kernels->len; j++) {
    Kernel *k = kernels->items[j];
    vec_free(&k->address_uses);
    k->indirect_launches = 0;
    k->original_uses = 0;
    k->dispatches = 0;
  }
  ok = other_uses(u, kernels, !check, check, el);
  if (!ok)
    return false;
  for (int j = 0; j < kernels->len; j++)
    ok &= some_launch_served(u, kernels->items[j]);
  if (!ok)
    return false;
  Vec done = {0}; /* Node*: the launches rewritten */
  Vec targets = {0};
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    pointer_targets(call, kernels, &targets);
    if (targets.len > 0) {
      ok &= pointer_dispatch(u, call, &targets, el);
      vec_push(&done, call);
      continue;
    }
    for (int j = 0; j < kernels->len; j++) {
      Kernel *k = kernels->items[j];
      if (launches_kernel(u, call, k) && k->p.factor > 1) {
        /* A macro that expands its argument twice makes two launches of
         * one text: rewritten once. */
        bool twin = false;
        for (int d = 0; d < done.len && !twin; d++) {
          Node *c = done.items[d];
          twin = c->launch_in_macro_arg && locate_launch_text(u, call, k) && c->begin == call->begin &&
                 c->end == call->end;
        }
        if (!twin)
          ok &= rewrite_one(u, call, k, check, el);
        vec_push(&done, call);
      }
    }
  }
  vec_free(&targets);
  for (int j = 0; j < kernels->len; j++) {
    Kernel *k = kernels->items[j];
    if (k->address_uses.len > 0 || (!check && (k->original_uses > 0 || k->dispatches > 0)))
      keep_original_for_uses(u, k, el); /* -check keeps it already (the driver) */
  }
  for (int j = 0; j < kernels->len; j++) {
    ok &= check_unrewritten(u, kernels->items[j], &done, opt->external_launches);
    bound_block_threads(u, kernels->items[j], &done, el);
  }
  vec_free(&done);
  return ok;
}

/* -factor auto: each launch of k becomes a dispatch among the kernel's
 * variants (variants.c) through the tuning runtime (tune.h):
 *   { const dim3 __tf_grid = (g); const dim3 __tf_block = (b);
 *     const size_t __tf_smem = (s); const cudaStream_t __tf_stream = (st);
 *     auto __tf_a0 = (next());                (arguments with side effects)
 *     static const tfuse_tune_cand __tf_cands[] = {{0, 0, 1u, "original"}, {1, 0, 2u, "block.x:2"}};
 *     static tfuse_tune_site __tf_site = {"k", "HASH", "file.cu:12", 2, __tf_cands, 0};
 *       (a launch whose kernel depends on a host template's parameters adds
 *       __PRETTY_FUNCTION__, its instantiation, to the key)
 *     auto __tf_launch = [&](int __tf_c) { switch (__tf_c) {
 *       case 1: k__tf_bx2<<<coarsen_grid(__tf_grid, 0, 2u), __tf_block, __tf_smem, __tf_stream>>>(
 *                 grid_extent(__tf_grid, 0), out, __tf_a0); break;
 *       default: k__tf_k1<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(out, __tf_a0); break; } };
 *       (a variant that divides an extern __shared__ array among its logical
 *       blocks, Variant.dyn_shared, is launched with K shares of the size,
 *       `2u * (size_t)::tfuse_rt::dyn_share(__tf_smem)`, and passed one
 *       share after the extents; its entry in the table adds `1, (const
 *       void *)k__tf_bx2` (0 where a template kernel's launch deduces its
 *       arguments), with which the runtime counts it infeasible where the
 *       shares and its static bytes pass what the device allows, and opts
 *       in above 48 KB: tune.cpp)
 *     ::tfuse_rt::Tune __tf_tune(&__tf_site, __tf_grid, __tf_block, __tf_smem, __tf_stream);
 *     if (__tf_tune.tuning()) { __tf_tune.track(out, "out"); __tf_tune.tune(__tf_launch); }
 *     __tf_launch(__tf_tune.choice()); }
 * A launch in a macro's argument or inside a larger expression becomes
 * that block as a lambda called on the spot, `[&] { ... }()`: an
 * expression wherever the launch stood (its commas are the launch's own
 * company: a launch's `<<<g, b>>>` already needs a variadic macro or
 * parentheses around it).  A launch in a macro's body has no text to rewrite. */
/* The offset of a using-declaration of the kernel's name (`using ns::k;`)
 * in the project's text, or -1: -factor auto renames the kernel, and the
 * declaration would then name nothing. */
static long using_declaration(const Source *src, const char *name) {
  const char *t = src->text;
  size_t len = src->len, nl = strlen(name);
  for (size_t i = 0; i + 5 < len;) {
    size_t j = skip_comment_or_literal(t, len, i);
    if (j != i) {
      i = j;
      continue;
    }
    if (strncmp(t + i, "using", 5) || (i > 0 && ident_char(t[i - 1])) || ident_char(t[i + 5])) {
      i++;
      continue;
    }
    size_t e = i + 5;
    while (e < len && t[e] != ';' && t[e] != '{' && t[e] != '=')
      e++;
    /* `using a::b::name;`: the last name before the `;` is the kernel's. */
    size_t n = e;
    while (n > i && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\n'))
      n--;
    if (e < len && t[e] == ';' && n >= i + 5 + nl && !strncmp(t + n - nl, name, nl) && !ident_char(t[n - nl - 1]) &&
        t[n - nl - 1] == ':')
      return (long)i;
    i = e;
  }
  return -1;
}

bool launch_rewrite_auto(Unit *u, Kernel *k, EditList *el) {
  const Source *src = u->src;
  const char *t = src->text;
  bool ok = true;
  long using_at = using_declaration(src, k->sym->name);
  if (using_at >= 0) {
    error_at((unsigned)using_at, "-factor auto renames '%s', which this using-declaration names; refer to it "
                                 "through its namespace", k->sym->name);
    return false;
  }
  Vec one = {0};
  vec_push(&one, k);
  ok = other_uses(u, &one, false, false, el);
  vec_free(&one);
  Vec done = {0};
  for (int i = 0; i < u->launches.len; i++) {
    Node *call = u->launches.items[i];
    if (!launches_kernel(u, call, k))
      continue;
    if (!locate_launch_text(u, call, k)) {
      error_at(call->begin, "-factor auto cannot route this launch of '%s' (written in a macro's body, or naming "
                            "the kernel with a qualifier); write it as '%s<<<...>>>(...)'",
               k->sym->name, k->sym->name);
      ok = false;
      continue;
    }
    bool twin = false;
    for (int d = 0; d < done.len && !twin; d++)
      twin = ((Node *)done.items[d])->begin == call->begin;
    if (twin)
      continue;
    vec_push(&done, call);
    unsigned cb, ce;
    Span parts[4];
    int np = launch_parts(u, call, k, &cb, &ce, parts);
    /* In a macro's argument or a larger expression: a lambda called on the spot. */
    bool expr = call->launch_in_macro_arg || !in_statement_position(call);
    unsigned end = !np ? 0 : expr ? call->end : launch_statement_end(u, call, k);
    if (!end) {
      ok = false;
      continue;
    }
    char *callee = arena_strndup(t + call->begin, cb - 3 - call->begin);
    char *site = launch_site(src, call->begin);
    if (!callee_in_own_scope(k, callee)) {
      error_at(call->begin, "-factor auto cannot route this launch of '%s': it names the kernel through a qualifier "
                            "other than its namespace's, where the variants are not declared", k->sym->name);
      ok = false;
      continue;
    }
    if (source_has_directive(src, call->begin, call->end)) {
      error_at(call->begin, "-factor auto cannot route this launch of '%s': a preprocessor directive (#if ...) "
                            "inside it would be copied into each variant's launch; coarsen it with a fixed -factor",
               k->sym->name);
      ok = false;
      continue;
    }

    /* Arguments, evaluated once: simple ones as written, others in locals. */
    Node *params[64];
    int npar = kernel_params(k, params, 64);
    Buf pre = {0}, args = {0}, track = {0};
    int nargs = 0;
    /* Their text is the launch's own (in a macro's argument, the nodes'
     * extents are the whole invocation); default arguments come last and
     * have none. */
    Span written[64];
    int nwritten = launch_arg_texts(u, call, ce, written, 64);
    for (int a = 0; a < nwritten && 2 + a < call->nkid; a++) {
      Node *arg = call->kid[2 + a];
      char *text = span_text(src, written[a]);
      char *use = text;
      if (node_has_side_effects(arg)) {
        use = arena_printf("__tf_a%d", nargs);
        buf_printf(&pre, "auto %s = (%s); ", use, text);
      }
      buf_printf(&args, "%s%s", nargs ? ", " : "", use);
      if (nargs < npar && params[nargs]->sym && params[nargs]->sym->is_pointer && !params[nargs]->sym->pointee_const)
        buf_printf(&track, "__tf_tune.track(%s, \"%s\"); ", use, params[nargs]->sym->name);
      nargs++;
    }
    char *ind = source_indent(src, call->begin);
    Buf b = {0}, cands = {0}, cases = {0};
    for (int v = 0; v < k->variants.len; v++) {
      Variant *var = k->variants.items[v];
      int d = var->p.dim;
      int mode = var->p.factor == 1 ? 0 : var->p.mode == MODE_BLOCK ? 1 : var->whole_warps ? 3 : 2;
      char *vcallee = callee_renamed(callee, k->sym->name, var->name);
      if (!vcallee) {
        error_at(call->begin, "cannot find the name of '%s' in this launch", k->sym->name);
        ok = false;
        break;
      }
      /* A variant that divides its extern __shared__ array: K shares, and
       * the variant itself for the runtime's feasibility and opt-in. */
      bool divides = mode == 1 && var->dyn_shared;
      buf_printf(&cands, "%s{%d, %d, %du, \"%s\"", v ? ", " : "", mode, d, var->p.factor, var->label);
      if (divides)
        buf_printf(&cands, ", 1, %s",
                   callee_nameable(u, k, vcallee) ? arena_printf("(const void *)%s", vcallee) : "0");
      buf_puts(&cands, "}");
      char *smem = divides ? arena_printf("%du * (size_t)::tfuse_rt::dyn_share(__tf_smem)", var->p.factor)
                           : "__tf_smem";
      Kernel vk = *k; /* the variant's dimensions and factors (two for block.xy:AxB) */
      vk.p = var->p;
      char *grid = mode == 1 ? coarsened_grid(&vk, "__tf_grid") : "__tf_grid";
      char *block = mode >= 2 ? arena_printf("::tfuse_rt::coarsen_block%s(__tf_block, %d, %du, \"%s\", \"%s\")",
                                             mode == 3 ? "_warps" : "", d, var->p.factor, k->sym->name, site)
                              : "__tf_block";
      char *extent = mode == 1 ? arena_printf("%s%s%s", grid_extents(&vk, "__tf_grid"),
                                              divides ? ", ::tfuse_rt::dyn_share(__tf_smem)" : "", nargs ? ", " : "")
                               : "";
      buf_printf(&cases, "%s    %s: %s<<<%s, %s, %s, __tf_stream>>>(%s%s); break;\n", ind,
                 v ? arena_printf("case %d", v) : "default", vcallee, grid, block, smem, extent,
                 args.data ? args.data : "");
    }
    buf_printf(&b, "%s{ const dim3 __tf_grid = (%s); const dim3 __tf_block = (%s);\n", expr ? "[&] " : "",
               span_text(src, parts[0]), span_text(src, parts[1]));
    buf_printf(&b, "%s  const size_t __tf_smem = (%s); const cudaStream_t __tf_stream = (%s);\n", ind,
               np > 2 ? span_text(src, parts[2]) : "0", np > 3 ? span_text(src, parts[3]) : "0");
    if (pre.len)
      buf_printf(&b, "%s  %.*s\n", ind, (int)pre.len - 1, pre.data);
    buf_printf(&b, "%s  static const tfuse_tune_cand __tf_cands[] = {%s};\n", ind, cands.data);
    /* A launch that names the kernel through a host template's parameters
     * launches another instantiation in each of the template's: the
     * enclosing function's __PRETTY_FUNCTION__ keeps their keys apart. */
    buf_printf(&b, "%s  static tfuse_tune_site __tf_site = {\"%s\", \"%s\", \"%s\", %d, __tf_cands, %s%s%s%s};\n", ind,
               k->sym->name, k->tune_hash, site, k->variants.len, k->untunable ? "\"" : "",
               k->untunable ? k->untunable : "0", k->untunable ? "\"" : "", call->sym ? "" : ", __PRETTY_FUNCTION__");
    buf_printf(&b, "%s  auto __tf_launch = [&](int __tf_c) {\n%s    switch (__tf_c) {\n%s%s    }\n%s  };\n", ind, ind,
               cases.data, ind, ind);
    buf_printf(&b, "%s  ::tfuse_rt::Tune __tf_tune(&__tf_site, __tf_grid, __tf_block, __tf_smem, __tf_stream);\n",
               ind);
    buf_printf(&b, "%s  if (__tf_tune.tuning()) { %s__tf_tune.tune(__tf_launch); }\n", ind,
               track.data ? track.data : "");
    buf_printf(&b, "%s  __tf_launch(__tf_tune.choice());\n%s}%s", ind, ind, expr ? "()" : "");
    edit_replace(el, call->begin, end - call->begin, b.data);
    buf_free(&b);
    buf_free(&cands);
    buf_free(&cases);
    buf_free(&pre);
    buf_free(&args);
    buf_free(&track);
  }
  if (ok && done.len == 0)
    warning_at(k->fn->loc, "no launch of '%s' in this file: -factor auto renamed its variants, so a launch "
                           "elsewhere no longer compiles", k->sym->name);
  vec_free(&done);
  return ok;
}
