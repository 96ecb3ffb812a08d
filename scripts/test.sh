#!/usr/bin/env bash
# Builds tfuse if needed and runs the lit test suite (test/lit), then prints
# a summary line "N passed, N failed[, N skipped]".
#
# usage: bash scripts/test.sh [--sanitize] [LIT_ARGS...] [TESTS...]
#        bash scripts/test.sh [--sanitize] --summary
#   --sanitize  builds build-asan/ instead (clang 22, TFUSE_SANITIZE=ON:
#             AddressSanitizer with leak detection, and UndefinedBehaviorSanitizer,
#             any report fatal) and runs the suite against that tfuse
#   LIT_ARGS  passed to lit after its defaults (-sv), e.g. -a, --filter uniform
#   TESTS     test files or folders (default: all of test/lit), e.g.
#             bash scripts/test.sh test/lit/driver
#   --summary prints the summary line of the last run and exits non-zero
#             unless it passed (what .ci/run prints last)
# Exits non-zero when the build failed, a test failed, or nothing ran.
#
# Counting: PASS, FLAKYPASS and XFAIL are passed; FAIL, XPASS, UNRESOLVED,
# TIMEOUT, and SKIPPED (a test lit never ran, as after --max-time) are
# failed; UNSUPPORTED (a REQUIRES: that does not hold) is skipped.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build"
sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=1
  build="$root/build-asan"
  shift
fi
results="$build/test/lit-results.json"

say() { printf '==> test: %s\n' "$*"; }

# summary: prints the summary line of $results; fails unless something
# passed and nothing failed.
summary() {
  if [ ! -f "$results" ]; then
    echo "0 passed, 0 failed"
    return 1
  fi
  python3 - "$results" <<'EOF'
import json, sys
tests = json.load(open(sys.argv[1])).get("tests", [])
passed = failed = skipped = 0
for t in tests:
    code = t.get("code")
    if code in ("PASS", "FLAKYPASS", "XFAIL"):
        passed += 1
    elif code in ("UNSUPPORTED", "EXCLUDED"):
        skipped += 1
    else:  # FAIL, XPASS, UNRESOLVED, TIMEOUT, SKIPPED, or anything new
        failed += 1
line = "%d passed, %d failed" % (passed, failed)
if skipped:
    line += ", %d skipped" % skipped
print(line)
sys.exit(0 if passed and not failed else 1)
EOF
}

if [ "${1:-}" = "--summary" ]; then
  summary
  exit
fi
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
esac

rm -f "$results"

# Configure once (installing what is missing); after that the build tree
# re-configures itself when a CMakeLists.txt changes.
if [ "$sanitize" -eq 1 ]; then
  if [ ! -f "$build/CMakeCache.txt" ] || [ ! -f "$build/test/lit/lit.site.cfg.py" ]; then
    bash "$root/scripts/setup.sh" --deps-only --sanitizers
    generator=()
    if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
    cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
      -DTFUSE_SANITIZE=ON
  fi
  # lit passes these through to the tests.  Leak detection is on;
  # test/fuzz/ubsan.supp lists known findings that wait for a fix.
  symbolizer=/usr/lib/llvm-22/bin/llvm-symbolizer
  [ -x "$symbolizer" ] || symbolizer=$(readlink -f "$(command -v llvm-symbolizer || echo /nonexistent)")
  sym=""
  [ -x "$symbolizer" ] && sym=":external_symbolizer_path=$symbolizer"
  export ASAN_OPTIONS="detect_leaks=1$sym"
  export UBSAN_OPTIONS="print_stacktrace=1:suppressions=$root/test/fuzz/ubsan.supp$sym"
elif [ ! -f "$build/CMakeCache.txt" ] || [ ! -f "$build/test/lit/lit.site.cfg.py" ]; then
  bash "$root/scripts/setup.sh" --configure-only
fi

say "building tfuse"
build_ok=1
if ! cmake --build "$build" --parallel; then
  build_ok=0
  # Ninja keeps the last good binary when a compile fails; remove it so that
  # no test passes against old code.  The next good build puts it back.
  rm -f "$build/bin/tfuse"
  say "the build FAILED (errors above); running the tests anyway, so that" \
    "the ones that need tfuse show as failed"
fi

# The lit that CMake found (test/CMakeLists.txt), a ;-separated list.
lit_command=$(sed -n 's/^TFUSE_LIT_COMMAND:[A-Z]*=//p' "$build/CMakeCache.txt")
IFS=';' read -r -a lit <<<"${lit_command:-/usr/lib/llvm-22/bin/lit}"

# Arguments that name existing files or folders select tests; without any,
# the whole suite runs.
paths=()
for arg in "$@"; do
  if [ -e "$arg" ]; then paths+=("$arg"); fi
done
[ ${#paths[@]} -gt 0 ] || set -- "$@" "$root/test/lit"

say "running: ${lit[*]} -sv $* (results in ${results#"$root"/})"
lit_status=0
"${lit[@]}" -sv --param "tfuse_site_config=$build/test/lit/lit.site.cfg.py" \
  -o "$results" "$@" || lit_status=$?

say "summary:"
summary_ok=1
summary || summary_ok=0
if [ "$build_ok" -eq 0 ]; then
  say "FAILED: the build failed"
  exit 1
fi
if [ "$lit_status" -ne 0 ] || [ "$summary_ok" -eq 0 ]; then
  exit 1
fi
