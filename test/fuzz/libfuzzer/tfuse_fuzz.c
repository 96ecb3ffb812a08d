/* libFuzzer target: the whole of tfuse (options, libclang parse, every
 * pass, emission) on one CUDA source file per input, in process.
 *
 * An input is CUDA source text.  If its first byte is 0xFF, the second byte
 * selects command-line flags (below) and the source starts after it;
 * otherwise the whole input is the source and no flags are added, so any
 * .cu file is a seed as it is.  Flag byte:
 *   bits 0-1  -factor 2, 4, 3, 8
 *   bits 2-3  no -dim, -dim x, -dim y, -dim z
 *   bit  4    -mode thread
 *   bit  5    -mapping consecutive
 *   bit  6    -check
 *   bit  7    -skip-unsafe
 *
 * Each input is written to input.cu in a temporary folder of this process
 * ($TMPDIR/tfuse-fuzz-XXXXXX, removed at exit) and tfuse_main runs on it
 * with -o out.cu there, and with samples/common on the include path (as
 * `-- -I TFUSE_FUZZ_INCLUDE_DIR`), so that the samples' own
 * `#include "../common/harness.h"` resolves.  The parse uses tfuse's precompiled preamble
 * (passes/parse.c), built once into $TFUSE_CACHE_DIR (or ~/.cache/tfuse).
 *
 * Reproduce a crash: build-fuzz/bin/tfuse-fuzz CRASHFILE (README.md,
 * "Fuzzing the front end"). */
#include "tfuse.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[4096];
static char input_path[4096 + 16];
static char output_path[4096 + 16];

static void remove_dir(void) {
  unlink(input_path);
  unlink(output_path);
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/tfuse-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("tfuse-fuzz: mkdtemp");
    exit(1);
  }
  snprintf(input_path, sizeof input_path, "%s/input.cu", dir);
  snprintf(output_path, sizeof output_path, "%s/out.cu", dir);
  atexit(remove_dir);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *argv[24]; /* at most 16 and the NULL */
  int argc = 0;
  argv[argc++] = "tfuse";
  if (size >= 2 && data[0] == 0xFF) {
    static char *factors[] = {"2", "4", "3", "8"};
    static char *dims[] = {NULL, "x", "y", "z"};
    unsigned f = data[1];
    argv[argc++] = "-factor";
    argv[argc++] = factors[f & 3];
    if (dims[(f >> 2) & 3]) {
      argv[argc++] = "-dim";
      argv[argc++] = dims[(f >> 2) & 3];
    }
    if (f & 16) {
      argv[argc++] = "-mode";
      argv[argc++] = "thread";
    }
    if (f & 32) {
      argv[argc++] = "-mapping";
      argv[argc++] = "consecutive";
    }
    if (f & 64)
      argv[argc++] = "-check";
    if (f & 128)
      argv[argc++] = "-skip-unsafe";
    data += 2;
    size -= 2;
  }
  argv[argc++] = input_path;
  argv[argc++] = "-o";
  argv[argc++] = output_path;
  argv[argc++] = "--";
  argv[argc++] = "-I" TFUSE_FUZZ_INCLUDE_DIR;
  argv[argc] = NULL;

  FILE *f = fopen(input_path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror("tfuse-fuzz: cannot write the input");
    abort();
  }
  tfuse_main(argc, argv);
  unlink(output_path);
  return 0;
}
