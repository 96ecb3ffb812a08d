/* kernel_apis: the runtime's functions that take a coarsened kernel.
 *
 * Contract: a call of cudaFuncGetAttributes, cudaFuncSetAttribute, the
 * occupancy calculators, cudaLaunchKernel, cudaLaunchCooperativeKernel or
 * cudaLaunchKernelEx (host_apis.def) that names a coarsened kernel is
 * rewritten so that it describes and launches the logical kernel: its
 * block and grid rescaled as a <<<>>> launch's, the original launched where
 * the coarsened kernel cannot serve the shape, an attribute set on both
 * kernels; an attribute or argument tfuse cannot read is refused at the
 * call, naming the kernel. */
#include "passes.h"
#include "launch_int.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const KernelApi kernel_apis[] = {
#define A(name, kernel_arg, kind) {name, kernel_arg, API_##kind},
#include "host_apis.def"

/* ---- the runtime's functions that take a kernel ----
 *
 * (K: the factor, the product of the factors with several dimensions.)
 * A query answers for the kernel it is given, and the program picks its
 * launches from the answers (a block size from
 * cudaOccupancyMaxPotentialBlockSize, a grid from the blocks per
 * multiprocessor): the answers must be those the original kernel gives.
 * So a query names the original, kept in the output as `k__tf_orig`
 * (-factor auto: its original variant, `k__tf_k1`), and answers as without
 * tfuse; the launch it picks is rewritten as any other (and fails with the
 * runtime's error, or a check of the prelude's, where the coarsened kernel
 * cannot run it):
 * - cudaFuncGetAttributes, cudaFuncGetParamInfo, and the occupancy
 *   calculators (cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags],
 *   cudaOccupancyMaxPotentialBlockSize[VariableSMem][WithFlags],
 *   cudaOccupancyAvailableDynamicSMemPerBlock,
 *   cudaOccupancyMaxPotentialClusterSize, cudaOccupancyMaxActiveClusters),
 *   C and template forms alike:
 *     cudaOccupancyMaxPotentialBlockSize(&g, &b, k__tf_orig, 0, 0)
 * - cudaFuncGetName: thread mode as written (the coarsened kernel keeps the
 *   original's name and parameters); block mode refused (the coarsened
 *   kernel takes the grid extents first, and the kept original is renamed,
 *   so neither has the original's mangled name).
 * A setter must reach the kernel that runs and the original the queries
 * read (and -check launches):
 * - cudaFuncSetCacheConfig, cudaFuncSetSharedMemConfig, cudaFuncSetAttribute:
 *     [&]() -> cudaError_t { const auto __tf_v = (v);
 *       cudaError_t __tf_e = cudaFuncSetAttribute(k__tf_orig, a, __tf_v);
 *       if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetAttribute(k, a, __tf_v);
 *       return __tf_e; }()
 *   the original's error first, as without tfuse.  Block mode with a
 *   divided dynamic shared size asks for K shares at a launch, so the
 *   coarsened kernel's MaxDynamicSharedMemorySize is
 *   `::tfuse_rt::dyn_shared_limit(k, Ku * ::tfuse_rt::dyn_share(__tf_v))`,
 *   which stops the program with the reason where K shares pass what the
 *   device allows (the launch would fail); a cluster's extent
 *   (RequiredClusterWidth, Height, Depth) along a coarsened dimension is
 *   divided as __cluster_dims__ is (::tfuse_rt::coarsen_cluster: c / K
 *   where K divides c, else 1); an attribute tfuse cannot read, in block
 *   mode: refused.  -factor auto: each variant its own
 *   (every_variant), the dynamic size clamped to what the device allows
 *   the variant.
 * Launches:
 * - cudaLaunchKernel, cudaLaunchCooperativeKernel(f, g, b, args, s, st): as a
 *   `<<<>>>` launch: thread mode divides b (coarsen_block), block mode
 *   rescales g and passes the original extents (and the share) first, in a
 *   new argument array:
 *     [&]() -> cudaError_t { const dim3 __tf_grid = (g); void **__tf_args = (args);
 *       unsigned int __tf_ext0 = ::tfuse_rt::grid_extent(__tf_grid, 0);
 *       void *__tf_argv[3]; __tf_argv[0] = &__tf_ext0; __tf_argv[1] = __tf_args[0]; ...
 *       return cudaLaunchKernel(f, ::tfuse_rt::coarsen_grid(__tf_grid, 0, 4u), b, __tf_argv, s, st); }()
 * - cudaLaunchKernelEx(&cfg, k, args...): a copy of the configuration,
 *   rescaled as above, and the extents before the arguments; block mode
 *   copies its attributes too, a cluster dimension divided as
 *   __cluster_dims__ is (::tfuse_rt::coarsen_cluster_attrs).
 * Any other function given the kernel (cudaGetFuncBySymbol, whose handle
 * launches it) is refused at the name, naming the function.
 * Statements are separated by `;` and every comma is inside parentheses,
 * so the text stays one argument of a macro it is written in. */
#undef A
};

/* Where a use of k's name is spelled (for a caret): inside a macro's
 * argument the node's extent is the whole invocation, and a name in a
 * macro's body is at the innermost use of a macro whose body names it. */
unsigned use_at(const Unit *u, const Node *n, const Kernel *k) {
  size_t nl = strlen(k->sym->name);
  if (n->loc + nl <= u->src->len && !strncmp(u->src->text + n->loc, k->sym->name, nl))
    return n->loc;
  unsigned at = n->begin;
  for (int i = 0; i < u->macro_uses.len; i++) {
    const MacroUse *mu = u->macro_uses.items[i];
    if (mu->begin < at || mu->begin >= n->end)
      continue;
    for (int b = 0; b < mu->macro->nbody; b++)
      if (!strcmp(mu->macro->body[b], k->sym->name))
        at = mu->begin;
  }
  return at;
}

static Span trimmed(const Source *src, Span s) {
  while (s.b < s.e && isspace((unsigned char)src->text[s.b]))
    s.b++;
  while (s.e > s.b && isspace((unsigned char)src->text[s.e - 1]))
    s.e--;
  return s;
}

/* The call of kernel_apis whose kernel argument n is (through parentheses,
 * casts and `&`), and its text. */
ApiCall api_call_of(const Unit *u, Node *n, const Kernel *k) {
  ApiCall c = {0};
  Node *a = n, *p = n->parent;
  /* In a host template, `k<T>` is a dependent reference around the name. */
  while (p && (p->kind == N_UNEXPOSED || p->kind == N_PAREN || p->kind == N_CAST ||
               (p->kind == N_UNOP && p->op == OP_ADDR) || (p->kind == N_DECL_REF && n->kind == N_OTHER))) {
    a = p;
    p = p->parent;
  }
  if (!p || p->kind != N_CALL || p->is_launch)
    return c;
  const char *name = p->spelling ? p->spelling : p->sym ? p->sym->name : NULL;
  for (size_t i = 0; name && i < sizeof kernel_apis / sizeof *kernel_apis && !c.api; i++)
    if (!strcmp(name, kernel_apis[i].name) && call_first_arg(p) + kernel_apis[i].kernel_arg < p->nkid &&
        p->kid[call_first_arg(p) + kernel_apis[i].kernel_arg] == a)
      c.api = &kernel_apis[i];
  if (!c.api)
    return c;
  /* The text: the callee's name where the call's location is spelled
   * (in a macro's argument too), its `(`, the matching `)`. */
  const Source *src = u->src;
  const char *t = src->text;
  size_t nl = strlen(name);
  unsigned b = p->loc;
  if (p->in_macro || b + nl > src->len || strncmp(t + b, name, nl) || ident_char(t[b + nl]))
    return c;
  unsigned lp = source_skip_space(src, b + (unsigned)nl);
  if (lp >= src->len || t[lp] != '(')
    return c;
  unsigned e = text_match(src, lp, (unsigned)src->len);
  if (e <= lp + 1 || t[e - 1] != ')')
    return c;
  Span parts[API_MAX_ARGS];
  int first = call_first_arg(p);
  c.nargs = split_config(src, lp + 1, e - 1, p->kid + first, p->nkid - first, parts, API_MAX_ARGS);
  for (int i = 0; i < c.nargs; i++)
    c.args[i] = trimmed(src, parts[i]);
  /* The kernel's name must lie in the kernel argument's text. */
  unsigned at = use_at(u, n, k);
  if (c.api->kernel_arg >= c.nargs || at < c.args[c.api->kernel_arg].b || at >= c.args[c.api->kernel_arg].e)
    return c;
  c.b = b;
  c.e = e;
  return c;
}

static char *arg_text(const Unit *u, const ApiCall *c, int i, const char *absent) {
  return i < c->nargs ? arena_strndup(u->src->text + c->args[i].b, c->args[i].e - c->args[i].b) : (char *)absent;
}

/* The arguments from..nargs as written, each after ", ". */
static char *args_from(const Unit *u, const ApiCall *c, int from) {
  Buf b = {0};
  for (int i = from; i < c->nargs; i++)
    buf_printf(&b, ", %s", arg_text(u, c, i, ""));
  char *t = arena_strdup(b.data ? b.data : "");
  buf_free(&b);
  return t;
}

/* The dynamic shared size a launch of k passes for `bytes` of one logical
 * block: K shares where block mode divides it among the logical blocks. */
static char *scaled_dyn_shared(const Kernel *k, const char *bytes) {
  return k->dyn_shared ? arena_printf("%du * (size_t)::tfuse_rt::dyn_share(%s)", k->p.factor, bytes)
                       : (char *)bytes;
}

/* Block mode: the extents as locals (`unsigned int __tf_ext0 = ...;`), for
 * an argument array or the arguments of cudaLaunchKernelEx. */
static void extent_locals(const Kernel *k, Buf *b, Buf *names) {
  int dims[3], f[3], n = launch_dims(k, dims, f);
  for (int i = 0; i < n; i++) {
    buf_printf(b, "unsigned int __tf_ext%d = ::tfuse_rt::grid_extent(__tf_grid, %d); ", i, dims[i]);
    buf_printf(names, "%s__tf_ext%d", i ? ", " : "", i);
  }
}

static char *arg_renamed(const Unit *u, const ApiCall *c, const Kernel *k, unsigned at, const char *to);

/* The share of a kernel whose dynamic shared memory is divided, from
 * `bytes` (NULL: __tf_dsmem is declared already), and the opt-in above
 * 48 KB (as add_block_launch). */
static void dyn_share_locals(const Kernel *k, const char *bytes, const char *kernel, Buf *b) {
  if (bytes) /* else declared already */
    buf_printf(b, "unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(%s); ", bytes);
  buf_printf(b, "::tfuse_rt::dyn_shared_opt_in(%s, %du * (size_t)__tf_dsmem); ", kernel, k->p.factor);
}

static void replace_span(EditList *el, Span s, const char *text) { edit_replace(el, s.b, s.e - s.b, text); }

/* The call replaced by a lambda called on the spot, around `body`. */
static void replace_call(EditList *el, const ApiCall *c, const char *body) {
  edit_replace(el, c->b, c->e - c->b, arena_printf("[&]() -> cudaError_t { %s}()", body));
}

/* Block mode, an API launch: the condition under which the merged block
 * fits the device, for `kernel`, an expression of the coarsened kernel's
 * address (a block of run-time size, checked unless launch bounds hold
 * it). */
static char *api_block_serve_condition(const Unit *u, const Kernel *k, const char *kernel, const char *block) {
  return fit_condition(k, kernel, block, !has_launch_bounds(u->src, k), k->dyn_shared);
}

/* Block mode: cudaLaunchKernel / cudaLaunchCooperativeKernel, through a
 * new argument array with the original extents (and the share) first.
 * Where the original can be named at the call, the launch runs it, as
 * written, when the merged block does not fit the device:
 *   [&]() -> cudaError_t { static Fallback __tf_fb = {...}; const dim3 __tf_grid = (g);
 *     const dim3 __tf_block = (b); void **__tf_args = (a); const void *__tf_f = (f);
 *     [const size_t __tf_smem = (S); unsigned int __tf_dsmem = dyn_share(__tf_smem);]
 *     if (!(serves_threads(__tf_f, __tf_block, __tf_fb) [&& serves_shared(...)]))
 *       return cudaLaunchKernel(ORIGINAL, __tf_grid, __tf_block, __tf_args, S, st);
 *     ... return cudaLaunchKernel(__tf_f, coarsen_grid(...), __tf_block, __tf_argv, K * __tf_dsmem, st); }()
 * Without the original, the prelude's checks stop the program instead. */
static bool launch_api_block(Unit *u, const ApiCall *c, Kernel *k, unsigned at, const char *site, EditList *el) {
  Node *params[64];
  int npar = kernel_params(k, params, 64);
  /* A parameter pack (`T... rest`) has as many arguments as an instantiation. */
  bool pack = false;
  for (unsigned i = npar > 0 ? params[npar - 1]->begin : 0; npar > 0 && i + 3 <= params[npar - 1]->end && !pack; i++)
    pack = !strncmp(u->src->text + i, "...", 3);
  if (npar >= 64 || pack) {
    error_at(at, "tfuse cannot count the arguments of '%s' (a parameter pack) to pass the grid extent first in this "
                 "%s; tfuse refuses to coarsen the kernel", k->sym->name, c->api->name);
    return false;
  }
  char *orig = arg_renamed(u, c, k, at, original_name(k));
  char *cond = orig ? api_block_serve_condition(u, k, "__tf_f", "__tf_block") : NULL;
  Buf b = {0}, ext = {0};
  if (cond)
    fallback_record(&b, k, site);
  buf_printf(&b, "const dim3 __tf_grid = (%s); ", arg_text(u, c, 1, ""));
  const char *block = arg_text(u, c, 2, "");
  if (cond) {
    buf_printf(&b, "const dim3 __tf_block = (%s); ", block);
    block = "__tf_block";
  }
  buf_printf(&b, "void **__tf_args = (%s); const void *__tf_f = (const void *)(%s); ", arg_text(u, c, 3, ""),
             arg_text(u, c, 0, ""));
  if (cond) {
    const char *smem = arg_text(u, c, 4, "0");
    if (k->dyn_shared) {
      buf_printf(&b, "const size_t __tf_smem = (%s); unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_smem); ",
                 smem);
      smem = "__tf_smem";
    }
    buf_printf(&b, "if (!(%s)) return %s((const void *)(%s), __tf_grid, __tf_block, __tf_args, %s, %s); ", cond,
               c->api->name, orig, smem, arg_text(u, c, 5, "0"));
    k->dispatches++;
  }
  extent_locals(k, &b, &ext);
  if (k->dyn_shared)
    dyn_share_locals(k, cond ? NULL : arg_text(u, c, 4, "0"), "__tf_f", &b);
  int dims[3], f[3], n = launch_dims(k, dims, f), extra = n + (k->dyn_shared ? 1 : 0);
  buf_printf(&b, "void *__tf_argv[%d]; ", npar + extra);
  for (int i = 0; i < n; i++)
    buf_printf(&b, "__tf_argv[%d] = &__tf_ext%d; ", i, i);
  if (k->dyn_shared)
    buf_printf(&b, "__tf_argv[%d] = &__tf_dsmem; ", n);
  for (int i = 0; i < npar; i++)
    buf_printf(&b, "__tf_argv[%d] = __tf_args[%d]; ", extra + i, i);
  char *smem = k->dyn_shared ? arena_printf("%du * (size_t)__tf_dsmem", k->p.factor) : arg_text(u, c, 4, "0");
  buf_printf(&b, "return %s(__tf_f, %s, %s, __tf_argv, %s, %s); ", c->api->name, coarsened_grid(k, "__tf_grid"),
             block, smem, arg_text(u, c, 5, "0"));
  replace_call(el, c, b.data);
  buf_free(&b);
  buf_free(&ext);
  return true;
}

/* cudaLaunchKernelEx(&cfg, k, args...): a copy of the configuration.  In
 * block mode, where the original can be named at the call, the launch
 * runs it with the configuration as written when the merged block does
 * not fit the device (as launch_api_block). */
static void launch_ex(Unit *u, const ApiCall *c, Kernel *k, unsigned at, const char *site, EditList *el) {
  Buf b = {0}, ext = {0};
  char *kernel = arg_text(u, c, 1, "");
  char *orig = k->p.mode == MODE_BLOCK ? arg_renamed(u, c, k, at, original_name(k)) : NULL;
  char *cond = orig ? api_block_serve_condition(u, k, kernel, "__tf_cfg.blockDim") : NULL;
  if (cond)
    fallback_record(&b, k, site);
  buf_printf(&b, "cudaLaunchConfig_t __tf_cfg = *(%s); ", arg_text(u, c, 0, ""));
  if (k->p.mode == MODE_THREAD) {
    buf_printf(&b, "__tf_cfg.blockDim = %s; ", coarsened_block(k, "__tf_cfg.blockDim", site));
  } else {
    if (cond) {
      if (k->dyn_shared)
        buf_puts(&b, "unsigned int __tf_dsmem = ::tfuse_rt::dyn_share(__tf_cfg.dynamicSmemBytes); ");
      buf_printf(&b, "if (!(%s)) return cudaLaunchKernelEx(&__tf_cfg, %s%s); ", cond, orig, args_from(u, c, 2));
      k->dispatches++;
    }
    buf_printf(&b, "const dim3 __tf_grid = __tf_cfg.gridDim; __tf_cfg.gridDim = %s; ", coarsened_grid(k, "__tf_grid"));
    int dims[3], f[3], n = launch_dims(k, dims, f);
    buf_puts(&b, "::tfuse_rt::LaunchAttrs __tf_attrs; ");
    for (int i = 0; i < n; i++)
      buf_printf(&b, "::tfuse_rt::coarsen_cluster_attrs(__tf_cfg, __tf_attrs, %d, %du, \"%s\", \"%s\"); ", dims[i], f[i],
                 k->sym->name, site);
    extent_locals(k, &b, &ext);
    if (k->dyn_shared) {
      dyn_share_locals(k, cond ? NULL : "__tf_cfg.dynamicSmemBytes", kernel, &b);
      buf_printf(&b, "__tf_cfg.dynamicSmemBytes = %du * (size_t)__tf_dsmem; ", k->p.factor);
      buf_puts(&ext, ", __tf_dsmem");
    }
  }
  buf_printf(&b, "return cudaLaunchKernelEx(&__tf_cfg, %s%s%s%s); ", kernel, ext.len ? ", " : "",
             ext.data ? ext.data : "", args_from(u, c, 2));
  replace_call(el, c, b.data);
  buf_free(&b);
  buf_free(&ext);
}

/* Thread mode, cudaLaunchKernel / cudaLaunchCooperativeKernel /
 * cudaLaunchKernelEx: a dispatch on the block, as for <<<...>>> launches
 * (add_thread_dispatch), the original launched through the same function:
 *   [&]() -> cudaError_t { static Fallback __tf_fb = {...}; const dim3 __tf_block = (b);
 *     if (serves_block(__tf_block, d, K, warps, __tf_fb))
 *       return cudaLaunchKernel(f, g, coarsen_block(__tf_block, ...), args, s, st);
 *     return cudaLaunchKernel(f__tf_orig, g, __tf_block, args, s, st); }()
 * (cudaLaunchKernelEx: a copy of the configuration, its blockDim tested
 * and, for the coarsened kernel, rescaled).  False where the original
 * cannot be named at the call: the caller rescales the block alone. */
/* Whether text spells block extents with integer literals (`256`,
 * `dim3(32, 8)`) that K divides along each coarsened dimension (in whole
 * warps where the kernel needs them): such a launch needs no dispatch. */
static bool literal_block_served(const char *text, const Kernel *k) {
  long dims[3] = {1, 1, 1};
  const char *p = text;
  while (*p == ' ')
    p++;
  bool ctor = !strncmp(p, "dim3", 4);
  if (ctor) {
    p += 4;
    while (*p == ' ')
      p++;
    if (*p++ != '(')
      return false;
  }
  for (int i = 0; i < 3; i++) {
    while (*p == ' ')
      p++;
    if (!isdigit((unsigned char)*p))
      return false;
    char *end;
    dims[i] = strtol(p, &end, 10);
    p = end;
    while (*p == 'u' || *p == 'U' || *p == ' ')
      p++;
    if (*p != ',' || !ctor)
      break;
    p++;
  }
  if (ctor && *p++ != ')')
    return false;
  while (*p == ' ')
    p++;
  if (*p)
    return false;
  int ds[3], f[3], n = launch_dims(k, ds, f);
  for (int i = 0; i < n; i++)
    if (dims[ds[i]] % f[i] != 0 || (k->whole_warps && dims[ds[i]] / f[i] % 32 != 0))
      return false;
  return true;
}

static bool api_thread_dispatch(Unit *u, const ApiCall *c, Kernel *k, unsigned at, const char *site, EditList *el) {
  bool ex = c->api->kind == API_LAUNCH_EX;
  if (!ex && literal_block_served(arg_text(u, c, 2, ""), k))
    return false; /* the block rescaled in place */
  char *orig = arg_renamed(u, c, k, at, original_name(k));
  if (!orig)
    return false;
  char *cond = thread_serve_condition_of(k, ex ? "__tf_cfg.blockDim" : "__tf_block");
  int kernel_arg = c->api->kernel_arg;
  Buf b = {0}, coarse = {0}, plain = {0};
  fallback_record(&b, k, site);
  if (ex) {
    buf_printf(&b, "cudaLaunchConfig_t __tf_cfg = *(%s); ", arg_text(u, c, 0, ""));
    buf_printf(&b, "if (%s) { __tf_cfg.blockDim = %s; return cudaLaunchKernelEx(&__tf_cfg%s); } ", cond,
               coarsened_block(k, "__tf_cfg.blockDim", site), args_from(u, c, 1));
    buf_printf(&b, "return cudaLaunchKernelEx(&__tf_cfg, %s%s); ", orig, args_from(u, c, 2));
  } else {
    buf_printf(&b, "const dim3 __tf_block = (%s); ", arg_text(u, c, 2, ""));
    for (int i = 0; i < c->nargs; i++) {
      const char *sep = i ? ", " : "";
      const char *a = arg_text(u, c, i, "");
      buf_printf(&coarse, "%s%s", sep, i == 2 ? coarsened_block(k, "__tf_block", site) : a);
      buf_printf(&plain, "%s%s", sep, i == 2 ? "__tf_block" : i == kernel_arg ? orig : a);
    }
    buf_printf(&b, "if (%s) return %s(%s); return %s(%s); ", cond, c->api->name, coarse.data, c->api->name,
               plain.data);
  }
  replace_call(el, c, b.data);
  buf_free(&b);
  buf_free(&coarse);
  buf_free(&plain);
  k->dispatches++;
  return true;
}

/* The attribute a cudaFuncSetAttribute call names, without its prefix. */
static const char *attribute_name(const Unit *u, const ApiCall *c) {
  const char *a = arg_text(u, c, 1, "");
  if (!strncmp(a, "::", 2))
    a += 2;
  if (!strncmp(a, "cudaFuncAttribute", 17))
    return a + 17;
  return a;
}

/* The dimension a RequiredCluster{Width,Height,Depth} attribute sets, or -1.
 * Block mode passes it on to the coarsened kernel divided as
 * __cluster_dims__ is (::tfuse_rt::coarsen_cluster), as a launch's cluster
 * attribute is, so the two agree. */
static int cluster_attribute_dim(const char *attr) {
  return !strcmp(attr, "RequiredClusterWidth") ? 0 : !strcmp(attr, "RequiredClusterHeight") ? 1
                                                 : !strcmp(attr, "RequiredClusterDepth")    ? 2
                                                                                            : -1;
}

/* Block mode, cudaFuncSetAttribute: why tfuse cannot pass the attribute on
 * to the coarsened kernel, or NULL where it can (the dynamic shared size,
 * scaled where divided: rewrite_api_use, every_variant). */
static const char *attribute_refusal(const char *attr) {
  if (!strcmp(attr, "MaxDynamicSharedMemorySize") || !strcmp(attr, "PreferredSharedMemoryCarveout") ||
      !strcmp(attr, "NonPortableClusterSizeAllowed") || !strcmp(attr, "ClusterSchedulingPolicyPreference"))
    return NULL;
  return !strncmp(attr, "RequiredCluster", 15) ? "a cluster's extent must divide the grid, which block mode rescales"
                                               : "tfuse cannot tell which attribute this is";
}

/* -factor auto: a hint (cudaFuncSetCacheConfig), or an attribute
 * (cudaFuncSetAttribute), for each variant, the first error returned:
 *   [&]() -> cudaError_t { const auto __tf_v = (cudaFuncCachePreferL1);
 *     cudaError_t __tf_e = cudaSuccess;
 *     __tf_e = cudaFuncSetCacheConfig(k__tf_k1, __tf_v);
 *     if (__tf_e == cudaSuccess) __tf_e = cudaFuncSetCacheConfig(k__tf_bx2, __tf_v); ...; return __tf_e; }()
 * The original comes first, so the program sees its error, and the
 * variants are set only after it succeeded.  An attribute is each
 * variant's as rewrite_api_use makes it for that candidate, with one
 * difference: MaxDynamicSharedMemorySize for a variant (K shares of the
 * value where it divides its extern __shared__ array) is clamped to what
 * the device allows it (::tfuse_rt::dyn_shared_clamp), where the fixed
 * factor stops the program: a variant whose launch would need more is
 * infeasible for the runtime (tune.cpp), which then runs another, so the
 * call must not fail for it.  Any launch the original could make after the
 * call (a size of at most the value) gets what it needs in every feasible
 * variant: K shares of a smaller size are at most K shares of the value,
 * and feasibility is the shares within the clamp. */
static bool every_variant(Unit *u, const ApiCall *c, Kernel *k, unsigned at, EditList *el) {
  bool attribute = c->api->kind == API_SET_ATTRIBUTE;
  if (c->nargs != (attribute ? 3 : 2)) {
    error_at(at, "%s of '%s' with arguments tfuse cannot read; tfuse refuses to coarsen the kernel", c->api->name,
             k->sym->name);
    return false;
  }
  const char *attr = attribute ? attribute_name(u, c) : "";
  bool dyn_limit = attribute && !strcmp(attr, "MaxDynamicSharedMemorySize");
  Buf b = {0};
  buf_printf(&b, "const auto __tf_v = (%s); cudaError_t __tf_e = cudaSuccess; ", arg_text(u, c, attribute ? 2 : 1, ""));
  for (int v = 0; v < k->variants.len; v++) {
    Variant *var = k->variants.items[v];
    char *kernel = callee_renamed(arg_text(u, c, 0, ""), k->sym->name, var->name);
    if (!kernel) {
      error_at(at, "cannot find the name of '%s' in this call of %s", k->sym->name, c->api->name);
      buf_free(&b);
      return false;
    }
    const char *value = "__tf_v", *why = NULL;
    if (attribute && var->p.factor != 1 && var->p.mode == MODE_BLOCK && (why = attribute_refusal(attr))) {
      error_at(at, "-factor auto cannot route %s of '%s' to its candidate %s: it sets %s: %s; leave block mode out "
                   "of -tune-space or coarsen it with a fixed -factor", c->api->name, k->sym->name, var->label,
               attr, why);
      buf_free(&b);
      return false;
    }
    if (dyn_limit && var->p.factor != 1)
      value = arena_printf("::tfuse_rt::dyn_shared_clamp(%s, %s)", kernel,
                           var->p.mode == MODE_BLOCK && var->dyn_shared
                               ? arena_printf("%du * (size_t)::tfuse_rt::dyn_share(__tf_v)", var->p.factor)
                               : "__tf_v");
    buf_printf(&b, "%s__tf_e = %s(%s, %s%s%s); ", v ? "if (__tf_e == cudaSuccess) " : "", c->api->name, kernel,
               attribute ? arg_text(u, c, 1, "") : "", attribute ? ", " : "", value);
  }
  buf_puts(&b, "return __tf_e; ");
  replace_call(el, c, b.data);
  buf_free(&b);
  return true;
}

/* The kernel argument of c with k's name, at `at`, renamed to `to`; NULL
 * where it names k through a qualifier other than its namespace's (a
 * using-declaration), where `to` is not declared. */
static char *arg_renamed(const Unit *u, const ApiCall *c, const Kernel *k, unsigned at, const char *to) {
  const char *t = u->src->text;
  Span a = c->args[c->api->kernel_arg];
  size_t nl = strlen(k->sym->name);
  unsigned q = at;
  while (q > a.b && (ident_char(t[q - 1]) || t[q - 1] == ':' || t[q - 1] == ' '))
    q--;
  if (!callee_in_own_scope(k, arena_strndup(t + q, at + nl - q)))
    return NULL;
  return arena_printf("%.*s%s%.*s", (int)(at - a.b), t + a.b, to, (int)(a.e - at - nl), t + at + nl);
}

/* The name a query routes to: the original, kept beside the coarsened
 * kernel (launch_rewrite keeps it where Kernel.original_uses counts), or
 * -factor auto's original variant. */
static const char *original_target(Kernel *k) {
  if (k->p.factor != FACTOR_AUTO) {
    k->original_uses++;
    return original_name(k);
  }
  return k->variants.len > 0 ? ((Variant *)k->variants.items[0])->name : NULL;
}

/* A setter of the original (its error first, as without tfuse), then of
 * the coarsened kernel, given `value` for it (an expression of __tf_v). */
static bool set_both(Unit *u, const ApiCall *c, Kernel *k, const char *orig, const char *value, EditList *el) {
  bool attribute = c->api->kind == API_SET_ATTRIBUTE;
  const char *attr = attribute ? arena_printf("%s, ", arg_text(u, c, 1, "")) : "";
  replace_call(el, c, arena_printf("const auto __tf_v = (%s); cudaError_t __tf_e = %s(%s, %s__tf_v); "
                                   "if (__tf_e == cudaSuccess) __tf_e = %s(%s, %s%s); return __tf_e; ",
                                   arg_text(u, c, attribute ? 2 : 1, ""), c->api->name, orig, attr, c->api->name,
                                   arg_text(u, c, 0, ""), attr, value));
  return true;
}

/* One use of k as the kernel argument of c; false after a located error. */
bool rewrite_api_use(Unit *u, const ApiCall *c, Kernel *k, unsigned at, bool check, EditList *el) {
  const char *name = k->sym->name, *api = c->api->name;
  int K = k->p.factor;
  bool block = k->p.mode == MODE_BLOCK;
  if (K == FACTOR_AUTO && (c->api->kind == API_SETTER || c->api->kind == API_SET_ATTRIBUTE))
    return every_variant(u, c, k, at, el);
  if (c->api->kind == API_QUERY) {
    const char *to = original_target(k);
    char *arg = to ? arg_renamed(u, c, k, at, to) : NULL;
    if (!arg) {
      error_at(at, "%s of '%s' must name the original kernel, which tfuse keeps as '%s', but it names the kernel "
                   "through a qualifier other than its namespace's; tfuse refuses to coarsen the kernel",
               api, name, to ? to : original_name(k));
      return false;
    }
    replace_span(el, c->args[c->api->kernel_arg], arg);
    return true;
  }
  if (c->api->kind == API_NAME && (block || K == FACTOR_AUTO)) {
    error_at(at, "'%s' is passed to %s: the coarsened kernel takes %s, and the original tfuse keeps is renamed, so "
                 "neither has the original's name; tfuse refuses to coarsen the kernel",
             name, api, K == FACTOR_AUTO ? "the variant's parameters" : "the grid extents first");
    return false;
  }
  if (c->api->kind == API_NAME)
    return true;
  if (K == FACTOR_AUTO) {
    error_at(at, "-factor auto cannot route '%s' passed to %s (each variant is a kernel of its own); coarsen it "
                 "with a fixed -factor", name, api);
    return false;
  }
  char *site = launch_site(u->src, c->b);
  switch (c->api->kind) {
  case API_SETTER:
  case API_SET_ATTRIBUTE: {
    if (c->nargs != (c->api->kind == API_SET_ATTRIBUTE ? 3 : 2))
      break;
    const char *orig = arg_renamed(u, c, k, at, original_target(k));
    if (!orig) {
      error_at(at, "%s of '%s' must also set the original kernel, which tfuse keeps as '%s', but it names the "
                   "kernel through a qualifier other than its namespace's; tfuse refuses to coarsen the kernel",
               api, name, original_name(k));
      return false;
    }
    const char *value = "__tf_v";
    if (c->api->kind == API_SET_ATTRIBUTE && block) {
      const char *attr = attribute_name(u, c), *why = NULL;
      int cd = cluster_attribute_dim(attr), dims[3], f[3], n = launch_dims(k, dims, f);
      if (!strcmp(attr, "MaxDynamicSharedMemorySize") && k->dyn_shared)
        value = arena_printf("::tfuse_rt::dyn_shared_limit(%s, %s)", arg_text(u, c, 0, ""),
                             scaled_dyn_shared(k, "__tf_v"));
      else if (cd >= 0) {
        for (int i = 0; i < n; i++)
          if (dims[i] == cd)
            value = arena_printf("(int)::tfuse_rt::coarsen_cluster((unsigned int)__tf_v, %du)", f[i]);
      } else if ((why = attribute_refusal(attr))) {
        error_at(at, "%s of '%s' sets %s: %s; tfuse refuses to coarsen it in block mode", api, name, attr, why);
        return false;
      }
    }
    return set_both(u, c, k, orig, value, el);
  }
  case API_LAUNCH:
  case API_LAUNCH_EX:
    if (check) {
      error_at(at, "-check cannot route this launch of '%s' through %s; write it as %s<<<...>>>(...)", name, api,
               name);
      return false;
    }
    if (c->nargs < (c->api->kind == API_LAUNCH ? 4 : 2))
      break;
    k->indirect_launches++;
    if (!block && api_thread_dispatch(u, c, k, at, site, el))
      return true;
    if (c->api->kind == API_LAUNCH_EX)
      launch_ex(u, c, k, at, site, el);
    else if (block)
      return launch_api_block(u, c, k, at, site, el);
    else
      replace_span(el, c->args[2], coarsened_block(k, arg_text(u, c, 2, ""), site));
    return true;
  case API_QUERY:
  case API_NAME:
    break;
  }
  error_at(at, "%s of '%s' with arguments tfuse cannot read; tfuse refuses to coarsen the kernel", api, name);
  return false;
}
