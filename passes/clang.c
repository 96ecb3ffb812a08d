/* clang: running libclang on one input.
 *
 * Contract: parser_args gives the parser's command line for an input, CUDA
 * host side or device side as nvcc compiles it (clang's resource folder,
 * the input's flags as the driver read them, a compat header for what nvcc
 * gives every file); parse_input parses it with the project's changed texts
 * in place of those files (a precompiled preamble from the user's cache
 * where it can); skipped_ranges and token_spellings read what the
 * preprocessor left.  parse.c and device.c load their units through it. */
#define _GNU_SOURCE /* dladdr */
#include "passes.h"
#include "parse_int.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The spellings of the tokens of c's extent (c: a macro definition or use). */
char **token_spellings(CXCursor c, int *n) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &nt);
  char **out = arena_alloc(sizeof(char *) * (nt + 1));
  for (unsigned i = 0; i < nt; i++)
    out[i] = take_string(clang_getTokenSpelling(tu, toks[i]));
  if (toks)
    clang_disposeTokens(tu, toks, nt);
  *n = (int)nt;
  return out;
}

static const char *error_code_sentence(enum CXErrorCode ec) {
  switch (ec) {
  case CXError_Crashed: return "libclang crashed while parsing";
  case CXError_InvalidArguments: return "libclang rejected the parser arguments";
  case CXError_ASTReadError: return "libclang could not read the AST";
  default: return "libclang could not parse the file";
  }
}

/* The CUDA and C++ headers that clang includes before every CUDA file
 * cost nearly all of a parse.  They are parsed once per parser
 * configuration into a precompiled header in the user's cache
 * ($TFUSE_CACHE_DIR, else $XDG_CACHE_HOME/tfuse, else ~/.cache/tfuse) and
 * reused with -include-pch.  Any failure just means a plain parse;
 * TFUSE_NO_PCH=1 turns the cache off. */
/* What nvcc gives every file and clang's CUDA headers do not; parsed
 * only, never emitted, and a system header (so effects.c's table of known
 * functions applies to its declarations):
 *   - host overloads of min and max (nvcc's crt/math_functions.hpp): a
 *     host `max(1.5f, x)` is "no matching function" to clang;
 *   - the memory orders and scopes of nvcc's `__nv_atomic_*` builtins
 *     (enums of crt/device_functions.h, which clang's headers leave out)
 *     and declarations of the builtins, loose enough for any argument
 *     types (effects.c: stores through their pointers, or a fence);
 *   - the cache-hinted loads and stores of sm_32_intrinsics.h that
 *     clang's headers leave out (__ldca, __ldlu, __stcg, __stcs, __stwb),
 *     as templates for every element and vector type (effects.c: loads,
 *     stores through their pointers);
 *   - the C and C++ headers nvcc's own headers include and clang's do
 *     not: <new> (placement new in device code, crt/common_functions.h),
 *     <time.h> (host clock(), time()), <math.h> (isfinite, isnan, isinf
 *     of the global namespace on the host). */
static const char nvcc_host_compat[] =
    "/* tfuse: what nvcc gives every file (parsed only) */\n"
    "#pragma once\n"
    "#pragma clang system_header\n"
    "enum __tfuse_nv_atomic_order { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL,\n"
    "       __NV_ATOMIC_SEQ_CST };\n"
    "enum __tfuse_nv_thread_scope { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER, __NV_THREAD_SCOPE_DEVICE,\n"
    "       __NV_THREAD_SCOPE_SYSTEM };\n"
    "#define TFUSE_NV_ATOMIC(R, name) template <class T, class... A> __device__ R name(T *, A...);\n"
    "#define TFUSE_NV_ATOMIC_OP(op) TFUSE_NV_ATOMIC(T, __nv_atomic_fetch_##op) TFUSE_NV_ATOMIC(void, __nv_atomic_##op)\n"
    "TFUSE_NV_ATOMIC_OP(add) TFUSE_NV_ATOMIC_OP(sub) TFUSE_NV_ATOMIC_OP(min) TFUSE_NV_ATOMIC_OP(max)\n"
    "TFUSE_NV_ATOMIC_OP(and) TFUSE_NV_ATOMIC_OP(or) TFUSE_NV_ATOMIC_OP(xor)\n"
    "TFUSE_NV_ATOMIC(T, __nv_atomic_exchange_n) TFUSE_NV_ATOMIC(void, __nv_atomic_exchange)\n"
    "TFUSE_NV_ATOMIC(bool, __nv_atomic_compare_exchange_n) TFUSE_NV_ATOMIC(bool, __nv_atomic_compare_exchange)\n"
    "TFUSE_NV_ATOMIC(T, __nv_atomic_load_n) TFUSE_NV_ATOMIC(void, __nv_atomic_load)\n"
    "TFUSE_NV_ATOMIC(void, __nv_atomic_store_n) TFUSE_NV_ATOMIC(void, __nv_atomic_store)\n"
    "__device__ void __nv_atomic_thread_fence(int, int);\n"
    "#undef TFUSE_NV_ATOMIC_OP\n"
    "#undef TFUSE_NV_ATOMIC\n"
    "template <class T> __device__ T __ldca(const T *);\n"
    "template <class T> __device__ T __ldlu(const T *);\n"
    "template <class T, class V> __device__ void __stcg(T *, V);\n"
    "template <class T, class V> __device__ void __stcs(T *, V);\n"
    "template <class T, class V> __device__ void __stwb(T *, V);\n"
    "#include <new>\n"
    "#include <time.h>\n"
    "#include <math.h>\n"
    "#if !defined(__CUDA_ARCH__)\n"
    "#define TFUSE_MINMAX(R, A, B) \\\n"
    "  static inline __host__ R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; } \\\n"
    "  static inline __host__ R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }\n"
    "TFUSE_MINMAX(int, int, int)\n"
    "TFUSE_MINMAX(unsigned int, unsigned int, unsigned int)\n"
    "TFUSE_MINMAX(unsigned int, int, unsigned int)\n"
    "TFUSE_MINMAX(unsigned int, unsigned int, int)\n"
    "TFUSE_MINMAX(long int, long int, long int)\n"
    "TFUSE_MINMAX(unsigned long int, unsigned long int, unsigned long int)\n"
    "TFUSE_MINMAX(unsigned long int, long int, unsigned long int)\n"
    "TFUSE_MINMAX(unsigned long int, unsigned long int, long int)\n"
    "TFUSE_MINMAX(long long int, long long int, long long int)\n"
    "TFUSE_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)\n"
    "TFUSE_MINMAX(unsigned long long int, long long int, unsigned long long int)\n"
    "TFUSE_MINMAX(unsigned long long int, unsigned long long int, long long int)\n"
    "TFUSE_MINMAX(float, float, float)\n"
    "TFUSE_MINMAX(double, double, double)\n"
    "TFUSE_MINMAX(double, float, double)\n"
    "TFUSE_MINMAX(double, double, float)\n"
    "#undef TFUSE_MINMAX\n"
    "#endif\n";

/* Without a cache folder the compat header is an unsaved file of every
 * parse at this path (parse_input), which need not exist. */
#define NVCC_HOST_COMPAT_VIRTUAL "/tfuse-virtual/nvcc-host-compat.h"

/* The compat header's path in the cache folder (written once), else the
 * virtual one. */
static const char *nvcc_host_compat_path(void) {
  const char *dir = cache_dir();
  if (!dir)
    return NVCC_HOST_COMPAT_VIRTUAL;
  const char *path = arena_printf("%s/nvcc-host-compat-%016zx.h", dir, str_hash(nvcc_host_compat));
  if (access(path, R_OK) == 0)
    return path;
  const char *tmp = arena_printf("%s.%d.tmp", path, (int)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f)
    return NVCC_HOST_COMPAT_VIRTUAL;
  bool ok = fwrite(nvcc_host_compat, 1, sizeof nvcc_host_compat - 1, f) == sizeof nvcc_host_compat - 1;
  ok &= fclose(f) == 0;
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return NVCC_HOST_COMPAT_VIRTUAL;
  }
  return path;
}

static const char *preamble_pch(CXIndex index, Vec *args) {
  if (getenv("TFUSE_NO_PCH"))
    return NULL;
  const char *dir = cache_dir();
  if (!dir)
    return NULL;
  CXString ver = clang_getClangVersion();
  size_t h = str_hash(clang_getCString(ver));
  clang_disposeString(ver);
  for (int i = 0; i < args->len; i++)
    h = h * 31 + str_hash(args->items[i]);
  const char *path = arena_printf("%s/preamble-pp-%016zx.pch", dir, h);
  if (access(path, R_OK) == 0)
    return path;
  struct CXUnsavedFile empty = {"tfuse-preamble.cu", "", 0};
  CXTranslationUnit tu = NULL;
  if (clang_parseTranslationUnit2(index, "tfuse-preamble.cu", (const char *const *)args->items, args->len, &empty,
                                  1, CXTranslationUnit_ForSerialization | CXTranslationUnit_DetailedPreprocessingRecord,
                                  &tu) != CXError_Success)
    return NULL;
  const char *tmp = arena_printf("%s.%d.tmp", path, (int)getpid());
  bool ok = clang_saveTranslationUnit(tu, tmp, 0) == CXSaveError_None && rename(tmp, path) == 0;
  clang_disposeTranslationUnit(tu);
  if (!ok)
    unlink(tmp);
  return ok ? path : NULL;
}

/* clang's resource folder, <libclang's folder>/clang/<major version> (the
 * folder as the library was loaded, else with links resolved), or NULL
 * when that has no include/cuda_wrappers.  libclang's driver derives the
 * folder from the path of a clang program it does not have and misses it,
 * and with it the CUDA wrappers of the C++ headers (<new>'s placement new
 * for device code, <cmath>, <complex>) that clang's CUDA mode puts first
 * on the include path; given -resource-dir, it finds them. */
static const char *resource_dir(void) {
  static char dir[PATH_MAX + 32];
  static bool done;
  if (done)
    return dir[0] ? dir : NULL;
  done = true;
  /* dlsym, not &clang_createIndex: that may be tfuse's own PLT entry. */
  void *addr = dlsym(RTLD_DEFAULT, "clang_createIndex");
  Dl_info info;
  if (!addr || !dladdr(addr, &info) || !info.dli_fname)
    return NULL;
  CXString v = clang_getClangVersion();
  const char *ver = strstr(clang_getCString(v), "version ");
  int major = ver ? atoi(ver + 8) : 0;
  clang_disposeString(v);
  char real[PATH_MAX];
  const char *libs[] = {info.dli_fname, realpath(info.dli_fname, real)};
  for (int i = 0; i < 2 && major > 0; i++) {
    const char *slash = libs[i] ? strrchr(libs[i], '/') : NULL;
    if (!slash)
      continue;
    snprintf(dir, sizeof dir, "%.*s/clang/%d", (int)(slash - libs[i]), libs[i], major);
    if (access(arena_printf("%s/include/cuda_wrappers", dir), R_OK) == 0)
      return dir;
  }
  dir[0] = 0;
  return NULL;
}

/* The parser's command line for an input: CUDA host side (device: the
 * device side, for target.c's comparison) as nvcc compiles it with clang's
 * resource folder (resource_dir), the input's compiler
 * flags (its database entry's and the command line's) with nvcc's include
 * folders and macros (Input.parser_flags, which the driver reads), then the
 * host compat header. */
void parser_args(const Input *in, const Options *opt, Vec *args, bool device) {
  vec_push(args, "-x");
  vec_push(args, "cuda");
  vec_push(args, device ? "--cuda-device-only" : "--cuda-host-only");
  vec_push(args, "--cuda-gpu-arch=sm_90");
  vec_push(args, "-std=c++17");
  vec_push(args, arena_printf("--cuda-path=%s", opt->cuda_path));
  vec_push(args, "-Wno-unknown-cuda-version");
  vec_push(args, "-Wno-unknown-pragmas");
  vec_push(args, "-nogpulib"); /* no libdevice: the parse is host-side */
  const char *res = resource_dir();
  if (res) {
    vec_push(args, "-resource-dir");
    vec_push(args, (char *)res);
  }
  for (int i = 0; i < in->parser_flags.len; i++)
    vec_push(args, in->parser_flags.items[i]);
  vec_push(args, "-include");
  vec_push(args, (char *)nvcc_host_compat_path());
}

/* Parses one input with `args` (parser_args), with `texts` (Source*, by
 * real path: Project.texts, or the outputs verify.c checks) in place of
 * those files on disk; false after an error. */
bool parse_input(CXIndex index, const Input *in, Vec *args, const Vec *texts, unsigned flags,
                        CXTranslationUnit *tu, bool quiet) {
  /* libclang finds an unsaved file by the file it names, whatever the
   * spelling of the #include or of the input that reaches it. */
  struct CXUnsavedFile *unsaved = calloc((size_t)texts->len + 1, sizeof *unsaved);
  for (int i = 0; i < texts->len; i++) {
    Source *f = texts->items[i];
    unsaved[i] = (struct CXUnsavedFile){f->path, f->text, (unsigned long)f->len};
  }
  unsaved[texts->len] = (struct CXUnsavedFile){NVCC_HOST_COMPAT_VIRTUAL, nvcc_host_compat, sizeof nvcc_host_compat - 1};
  const char *pch = preamble_pch(index, args);
  enum CXErrorCode ec = CXError_Failure;
  *tu = NULL;
  if (pch) {
    vec_push(args, "-include-pch");
    vec_push(args, (void *)pch);
    ec = clang_parseTranslationUnit2(index, in->path, (const char *const *)args->items, args->len, unsaved,
                                     (unsigned)texts->len + 1, flags, tu);
    args->len -= 2;
    /* A stale or unusable cache: fall back to a plain parse. */
    if (ec == CXError_Success && clang_getNumDiagnostics(*tu) > 0) {
      bool pch_problem = false;
      for (unsigned i = 0; i < clang_getNumDiagnostics(*tu); i++) {
        CXDiagnostic d = clang_getDiagnostic(*tu, i);
        CXString m = clang_getDiagnosticSpelling(d);
        if (strstr(clang_getCString(m), "precompiled") || strstr(clang_getCString(m), ".pch"))
          pch_problem = true;
        clang_disposeString(m);
        clang_disposeDiagnostic(d);
      }
      if (pch_problem) {
        clang_disposeTranslationUnit(*tu);
        *tu = NULL;
        unlink(pch);
        ec = CXError_Failure;
      }
    }
  }
  if (ec != CXError_Success || !*tu)
    ec = clang_parseTranslationUnit2(index, in->path, (const char *const *)args->items, args->len, unsaved,
                                     (unsigned)texts->len + 1, flags, tu);
  free(unsaved);
  if (ec != CXError_Success) {
    *tu = NULL;
    if (!quiet)
      error_plain("%s '%s'", error_code_sentence(ec), in->path);
    return false;
  }
  return true;
}

/* The ranges tu's preprocessor skipped in the project's files (unsigned[2],
 * project offsets), for the translation unit whose files set_tu chose. */
void skipped_ranges(Impl *im, CXTranslationUnit tu, Vec *out) {
  CXSourceRangeList *l = clang_getAllSkippedRanges(tu);
  for (unsigned j = 0; l && j < l->count; j++) {
    unsigned b, e;
    if (loc_in_main(im, clang_getRangeStart(l->ranges[j]), &b) && loc_in_main(im, clang_getRangeEnd(l->ranges[j]), &e) &&
        b <= e) {
      unsigned *r = arena_alloc(2 * sizeof *r);
      r[0] = b;
      r[1] = e;
      vec_push(out, r);
    }
  }
  if (l)
    clang_disposeSourceRangeList(l);
}
