# -*- Python -*-
# lit configuration for tfuse.  Paths come from lit.site.cfg.py (written by
# CMake from lit.site.cfg.py.in); everything else is here.
#
# Run it through the build tree:
#   cmake --build build --target check          (or: bash scripts/test.sh)
#   lit -sv --param tfuse_site_config=build/test/lit/lit.site.cfg.py test/lit
# Without the --param, lit run on test/lit (or on one test in it) uses
# build/test/lit/lit.site.cfg.py of this checkout.
#
# This file is also a small script: every test first runs
#   python3 lit.cfg.py --lint-directives TEST
# which fails the test when a directive has lost its colon ("CHECK-NEXT foo"
# checks nothing, "RUN %tfuse" runs nothing), or when it has no RUN: line.

import os
import re
import sys

_SUFFIXES = r"(?:-(?:NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-[0-9]+))?"
_LIT_DIRECTIVES = ["RUN", "REQUIRES", "UNSUPPORTED", "XFAIL", "ALLOW_RETRIES", "DEFINE", "REDEFINE"]


def directive_problems(path):
    """Return 'line N: ...' messages for directives written without a colon."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    text = "\n".join(lines)
    prefixes = {"CHECK"}
    for m in re.finditer(r"--?check-prefix(?:es)?[= ]+([A-Za-z0-9_,-]+)", text):
        prefixes.update(p for p in m.group(1).split(",") if p)
    filecheck = "|".join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    lit = "|".join(_LIT_DIRECTIVES)
    # A directive opens a line (after an optional comment leader); what
    # follows its name must be the colon, or {LITERAL}: for FileCheck.
    directive = re.compile(
        r"^\s*(?:(?://+|#+|;+|/?\*+)\s*)?"
        r"((?:%s)%s|(?:%s))(?=[^A-Za-z0-9_-]|$)(\{LITERAL\})?(.?)" % (filecheck, _SUFFIXES, lit)
    )
    problems = []
    has_run = False
    for number, line in enumerate(lines, 1):
        m = directive.match(line)
        if not m:
            continue
        if m.group(3) == ":":
            has_run = has_run or m.group(1) == "RUN"
            continue
        problems.append("line %d: '%s' without ':' is not a directive, so it checks "
                        "or runs nothing: %s" % (number, m.group(1), line.strip()))
    if not has_run:
        problems.append("no 'RUN:' line")
    return problems


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "--lint-directives":
        sys.exit("usage: lit.cfg.py --lint-directives TEST...")
    failed = False
    for test_path in sys.argv[2:]:
        for problem in directive_problems(test_path):
            print("%s: error: %s" % (test_path, problem), file=sys.stderr)
            failed = True
    sys.exit(1 if failed else 0)

import lit.formats
import lit.util

# Find the site configuration when lit was pointed at the source tree.
if not hasattr(config, "tfuse_obj_root"):
    here = os.path.dirname(os.path.abspath(__file__))
    site = lit_config.params.get("tfuse_site_config") or os.path.join(
        here, "..", "..", "build", "test", "lit", "lit.site.cfg.py")
    site = os.path.abspath(site)
    if not os.path.isfile(site):
        lit_config.fatal("no site configuration at %s: build tfuse first "
                         "(bash scripts/setup.sh), or pass "
                         "--param tfuse_site_config=BUILD/test/lit/lit.site.cfg.py" % site)
    config.tfuse_loading_site_config = True
    lit_config.load_config(config, site)

config.name = "tfuse"
config.suffixes = [".cu", ".test"]
# Inputs/ folders hold files that tests read; they are not tests.
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "lit.site.cfg.py.in",
                   "CMakeLists.txt", "README.md", "README.txt"]
# test_source_root and test_exec_root (in the build tree) come from the site
# configuration; Output/ folders land there, never in the source tree.

# Each RUN line is a shell command (bash with pipefail when bash exists).
# Tests run in parallel (lit -j defaults to the number of cores); each writes
# only its own %t files and nvcc writes to /dev/null, so concurrent nvcc
# compiles do not collide.
lint = '"%s" "%s" --lint-directives "%%s"' % (sys.executable, os.path.abspath(__file__))
config.test_format = lit.formats.ShTest(True, preamble_commands=[lint])

# PATH: the tfuse binary first, then FileCheck, not, count from LLVM.
path = [p for p in (config.tfuse_tools_dir, config.llvm_tools_dir) if p]
config.environment["PATH"] = os.pathsep.join(path + [config.environment["PATH"]])
for var in ("CUDA_PATH",):
    if var in os.environ:
        config.environment[var] = os.environ[var]

tfuse = os.path.join(config.tfuse_tools_dir, "tfuse")
if not os.path.isfile(tfuse):
    lit_config.warning("%s does not exist: build it first; tests that run it will fail" % tfuse)
for tool in ("FileCheck", "not", "count"):
    if not lit.util.which(tool, config.environment["PATH"]):
        lit_config.warning("%s not found in %s or on PATH: install llvm-22-tools "
                           "(scripts/setup.sh does)" % (tool, config.llvm_tools_dir))

# Substitutions are applied in order: longer names before their prefixes.
if config.nvcc and os.path.isfile(config.nvcc):
    config.available_features.add("nvcc")
    nvcc = config.nvcc
else:
    # Tests that compile with nvcc say REQUIRES: nvcc; one that forgets it
    # fails on this name instead of passing without compiling anything.
    nvcc = "nvcc-not-found-REQUIRES-nvcc-missing"
config.substitutions.append(
    ("%nvcc-check", "%s -arch=sm_90 -std=c++17 -c -o /dev/null -x cu" % nvcc))
config.substitutions.append(("%nvcc", nvcc))
config.substitutions.append(("%cuda-path", config.cuda_path or "/usr/local/cuda"))
config.substitutions.append(("%tfuse", tfuse))
config.substitutions.append(("%src-root", config.tfuse_src_root))
config.substitutions.append(("%build-root", config.tfuse_obj_root))
# The runtime's environment variable, spelled through a substitution so that
# no RUN line carries a word FileCheck-like readers take for a directive.
config.substitutions.append(("%{checkenv}", "TFUSE_CHECK"))
