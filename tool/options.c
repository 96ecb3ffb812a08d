/* Command-line options.  Every option works with one or two dashes, as
 * `-opt V` and `--opt=V`; anything after `--` is the file's compiler
 * flags, in nvcc's spellings (read by tool/flags.c). */
#include "tfuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: tfuse [options] FILE.cu... [-- NVCC_FLAGS...]\n"
    "       tfuse [options] -p BUILD_DIR [FILE.cu...]\n"
    "\n"
    "Coarsens the CUDA kernels marked `#pragma tfuse coarsen` (or named with\n"
    "-kernel) in the files given and the headers they include from the root\n"
    "folder: each thread does the work of K logical threads, and every launch\n"
    "of those kernels in those files is rescaled to match.\n"
    "\n"
    "options:\n"
    "  -factor K              coarsening factor K >= 1 (default 2; 1 leaves kernels unchanged)\n"
    "  -factor auto           emit one variant per candidate and let the program pick the fastest\n"
    "                         correct one at run time (link runtime/src/tune.cpp, -lcuda)\n"
    "  -candidates LIST       -factor auto: the factors tried, e.g. 2,4,8, in the kernel's own mode\n"
    "                         and dimension (default: a space derived from the dimensions it reads)\n"
    "  -tune-space SPEC       -factor auto: modes, dimensions and factors tried, e.g.\n"
    "                         \"block.x:2,4,8 block.y:2,4 thread.x:2,4\" (overrides -candidates);\n"
    "                         block.x.interleaved:4 tries -layout interleaved; block.xy:4x2 merges\n"
    "                         4 x 2 blocks\n"
    "  -dim x|y|z             dimension to coarsen along (default x)\n"
    "  -factor KX,KY -dim x,y coarsen along several dimensions at once: KX*KY copies (also\n"
    "                         three: -factor 2,2,2 -dim x,y,z)\n"
    "  -mode block|thread     merge K neighbouring blocks (default) or K threads of a block\n"
    "  -mapping stride|consecutive\n"
    "                         thread mode: copy r is threadIdx+r*blockDim (stride, default)\n"
    "                         or threadIdx*K+r (consecutive)\n"
    "  -layout separate|interleaved\n"
    "                         block mode: a replicated __shared__ array becomes one array per\n"
    "                         copy (separate, default) or one array with the copies' elements\n"
    "                         side by side, 2 or 4 at a time (interleaved: vector loads)\n"
    "  -kernel NAME           coarsen this kernel, annotated or not (repeatable)\n"
    "  -o FILE                write the result to FILE (default and `-`: standard output);\n"
    "                         one input, no header changed\n"
    "  -i                     rewrite the changed files in place\n"
    "  -out-dir DIR           write each changed file to DIR, at its path under the root\n"
    "  -root DIR              the project's root: headers under it are rewritten too\n"
    "                         (default: the folder of the inputs, their common ancestor)\n"
    "  -no-promote            do not promote shared-memory re-reads to registers\n"
    "  -report                print a remark for each promotion decision\n"
    "  -skip-unsafe           leave kernels that cannot be coarsened unchanged, with a warning\n"
    "  -all-kernels           coarsen every __global__ function defined in the project's files\n"
    "  -keep-going            a file that cannot be parsed or a kernel that cannot be coarsened is\n"
    "                         reported and left unchanged; the rest is written (implies -skip-unsafe)\n"
    "  -j N                   parse and rewrite N groups of files at once (default 1)\n"
    "  -timeout SECONDS       stop a group of files still being rewritten after SECONDS (a failure:\n"
    "                         with -keep-going its files are left unchanged)\n"
    "  -report-json FILE      write one record per kernel and per file (the decision and why) to FILE\n"
    "  -external-launches     a thread-mode kernel may be launched outside these files (its\n"
    "                         launches there must divide the block by K themselves)\n"
    "  -check                 also emit each original kernel (as NAME__tf_orig) and route\n"
    "                         launches through the check runtime: with TFUSE_CHECK=1 each\n"
    "                         launch runs both and compares (link runtime/src/check.cpp, -lcuda)\n"
    "  -dump-after PASS       print the state after PASS (parse, uniform) and stop\n"
    "  -v                     print the parser's arguments (what tfuse took from nvcc)\n"
    "  -I DIR, -isystem DIR   add an include directory for the parser\n"
    "  -D NAME[=V], -U NAME   define, undefine a macro for the parser\n"
    "  -include FILE          include FILE first; -std=c++NN: the C++ dialect (nvcc's\n"
    "                         long spellings too: --include-path, --define-macro...)\n"
    "  -cuda-path DIR         CUDA installation (default /usr/local/cuda)\n"
    "  -p BUILD_DIR           take each file's compiler flags from\n"
    "                         BUILD_DIR/compile_commands.json; no FILE: all its CUDA files\n"
    "  -help                  print this help\n"
    "  -version               print the version\n"
    "\n"
    "After --, the flags nvcc compiles FILE.cu with: tfuse parses it with the\n"
    "include folders and macros nvcc would use (asked of nvcc) and ignores the\n"
    "rest (-arch, -O3, -o...).\n"
    "\n"
    "Pragma clauses: #pragma tfuse coarsen factor(K) dim(d) mode(m) mapping(p) layout(l),\n"
    "and factor(KX,KY) dim(x,y) for several dimensions;\n"
    "command-line options override them for every kernel.\n"
    "Exit status: 0 success, 1 errors in the input, 2 usage errors.\n";

static int usage_error(const char *fmt, const char *a, const char *b) {
  fputs("tfuse: error: ", stderr);
  fprintf(stderr, fmt, a, b);
  fputs("\ntry 'tfuse --help' for usage\n", stderr);
  return 2;
}

int options_parse(Options *opt, int argc, char **argv, bool *done) {
  *done = false;
  opt->promote = true;
  opt->cuda_path = TFUSE_DEFAULT_CUDA_PATH;
  opt->cli.factor = 2;
  for (int i = 1; i < argc; i++) {
    char *arg = argv[i];
    if (!strcmp(arg, "--")) {
      for (i++; i < argc; i++)
        vec_push(&opt->compiler_args, argv[i]);
      break;
    }
    if (arg[0] != '-' || !strcmp(arg, "-")) {
      vec_push(&opt->inputs, arg);
      continue;
    }
    /* Normalize: strip one or two dashes, split `name=value`. */
    const char *name = arg + 1 + (arg[1] == '-');
    char namebuf[64];
    const char *value = NULL;
    const char *eq = strchr(name, '=');
    if (eq && (size_t)(eq - name) < sizeof namebuf) {
      memcpy(namebuf, name, (size_t)(eq - name));
      namebuf[eq - name] = 0;
      value = eq + 1;
      name = namebuf;
    }
    /* -j8: the job count glued. */
    if (arg[1] == 'j' && arg[2] >= '0' && arg[2] <= '9') {
      name = "j";
      value = arg + 2;
    }
    /* -Ifoo, -DFOO=1 and -UFOO glued forms. */
    if ((arg[1] == 'I' || arg[1] == 'D' || arg[1] == 'U') && arg[2]) {
      vec_push(&opt->compiler_args, arg);
      continue;
    }

#define FLAG(s) (!strcmp(name, s))
#define NEED_VALUE()                                                           \
  do {                                                                         \
    if (!value) {                                                              \
      if (i + 1 >= argc)                                                       \
        return usage_error("option '%s' needs a value%s", arg, "");            \
      value = argv[++i];                                                       \
    }                                                                          \
  } while (0)

    if (FLAG("help") || FLAG("h")) {
      fputs(usage_text, stdout);
      *done = true;
      return 0;
    } else if (FLAG("version")) {
      printf("tfuse version %s\n", TFUSE_VERSION);
      *done = true;
      return 0;
    } else if (FLAG("factor")) {
      NEED_VALUE();
      if (!params_set_factor(&opt->cli, value))
        return usage_error("invalid value '%s' for -factor: expected an integer from 1 to 1024 or auto, or one "
                           "factor per dimension such as 4,4 (their product at most 1024)%s", value, "");
    } else if (FLAG("candidates")) {
      NEED_VALUE();
      if (!tune_space_parse(value, false, NULL))
        return usage_error("invalid value '%s' for -candidates: expected factors from 2 to 1024, e.g. 2,4,8%s",
                           value, "");
      opt->candidates = value;
    } else if (FLAG("tune-space")) {
      NEED_VALUE();
      if (!tune_space_parse(value, true, NULL))
        return usage_error("invalid value '%s' for -tune-space: expected items MODE.DIM:K,K,... such as "
                           "\"block.x:2,4 thread.y:2\", or block.DIMDIM:AxB,... (two dimensions, block mode) such "
                           "as \"block.xy:4x2,8x8\"%s", value, "");
      opt->tune_space = value;
    } else if (FLAG("dim")) {
      NEED_VALUE();
      if (!params_set_dim(&opt->cli, value))
        return usage_error("invalid value '%s' for -dim: expected x, y or z, or distinct dimensions such as "
                           "x,y%s", value, "");
    } else if (FLAG("mode")) {
      NEED_VALUE();
      if (!params_set_mode(&opt->cli, value))
        return usage_error("invalid value '%s' for -mode: expected block or thread%s", value, "");
    } else if (FLAG("mapping")) {
      NEED_VALUE();
      if (!params_set_mapping(&opt->cli, value))
        return usage_error("invalid value '%s' for -mapping: expected stride or consecutive%s", value, "");
    } else if (FLAG("layout")) {
      NEED_VALUE();
      if (!params_set_layout(&opt->cli, value))
        return usage_error("invalid value '%s' for -layout: expected separate or interleaved%s", value, "");
    } else if (FLAG("kernel")) {
      NEED_VALUE();
      vec_push(&opt->kernels, (void *)value);
    } else if (FLAG("o")) {
      NEED_VALUE();
      opt->output = value;
    } else if (FLAG("i")) {
      opt->in_place = true;
    } else if (FLAG("out-dir")) {
      NEED_VALUE();
      opt->out_dir = value;
    } else if (FLAG("root")) {
      NEED_VALUE();
      opt->root = value;
    } else if (FLAG("no-promote")) {
      opt->promote = false;
    } else if (FLAG("report")) {
      opt->report = true;
    } else if (FLAG("skip-unsafe")) {
      opt->skip_unsafe = true;
    } else if (FLAG("all-kernels")) {
      opt->all_kernels = true;
    } else if (FLAG("keep-going")) {
      opt->keep_going = true;
      opt->skip_unsafe = true;
    } else if (FLAG("j") || FLAG("jobs")) {
      NEED_VALUE();
      char *end;
      long n = strtol(value, &end, 10);
      if (*end || n < 1 || n > 1024)
        return usage_error("invalid value '%s' for -j: expected a number of jobs from 1 to 1024%s", value, "");
      opt->jobs = (int)n;
    } else if (FLAG("timeout")) {
      NEED_VALUE();
      char *end;
      double t = strtod(value, &end);
      if (*end || !(t > 0 && t <= 1e6))
        return usage_error("invalid value '%s' for -timeout: expected seconds, more than 0%s", value, "");
      opt->timeout = t;
    } else if (FLAG("report-json")) {
      NEED_VALUE();
      opt->report_json = value;
    } else if (FLAG("external-launches")) {
      opt->external_launches = true;
    } else if (FLAG("check")) {
      opt->check = true;
    } else if (FLAG("dump-after")) {
      NEED_VALUE();
      if (strcmp(value, "parse") && strcmp(value, "uniform"))
        return usage_error("invalid value '%s' for -dump-after: expected parse or uniform%s", value, "");
      opt->dump_after = value;
    } else if (FLAG("I") || FLAG("D") || FLAG("U") || FLAG("isystem") || FLAG("include") || FLAG("std") ||
               FLAG("x") || FLAG("include-path") || FLAG("system-include") || FLAG("define-macro") ||
               FLAG("undefine-macro") || FLAG("pre-include")) {
      /* The compiler's own options, in nvcc's spellings: read with the
       * flags after -- (tool/flags.c). */
      NEED_VALUE();
      vec_push(&opt->compiler_args, arena_printf("--%s=%s", name, value));
    } else if (FLAG("v")) {
      opt->verbose = true;
    } else if (FLAG("p")) {
      NEED_VALUE();
      opt->compdb_dir = value;
    } else if (FLAG("cuda-path")) {
      NEED_VALUE();
      opt->cuda_path = value;
    } else {
      return usage_error("unknown option '%s'%s", arg, "");
    }
#undef FLAG
#undef NEED_VALUE
  }
  if (!opt->inputs.len && !opt->compdb_dir)
    return usage_error("no input file%s%s", "", "");
  if ((opt->in_place != 0) + (opt->output != NULL) + (opt->out_dir != NULL) > 1)
    return usage_error("-i, -o and -out-dir cannot be used together%s%s", "", "");
  if (opt->output && (opt->inputs.len > 1 || !opt->inputs.len))
    return usage_error("-o writes one file, but tfuse rewrites %s; use -i or -out-dir DIR%s",
                       opt->inputs.len ? "several inputs" : "the files of the compilation database", "");
  if (opt->cli.nfactors > 1 && !(opt->cli.set & OPT_SET_DIM))
    return usage_error("-factor %s gives one factor per dimension: also give the dimensions, e.g. -dim %s",
                       params_factor_text(&opt->cli), opt->cli.nfactors == 2 ? "x,y" : "x,y,z");
  if ((opt->cli.set & OPT_SET_FACTOR) && (opt->cli.set & OPT_SET_DIM) && opt->cli.nfactors != opt->cli.ndims)
    return usage_error("-factor %s and -dim %s: give one factor per dimension (e.g. -factor 4,4 -dim x,y)",
                       params_factor_text(&opt->cli), params_dim_text(&opt->cli));
  if (opt->check && opt->cli.factor == FACTOR_AUTO && (opt->cli.set & OPT_SET_FACTOR))
    return usage_error("-check and -factor auto cannot be used together (-factor auto checks every candidate "
                       "itself)%s%s", "", "");
  return 0;
}
