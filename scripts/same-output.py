#!/usr/bin/env python3
"""Whether two tfuse binaries write the same bytes: a check that a change
meant to move code (no behaviour change) changed nothing.

    scripts/same-output.py BASE_TFUSE NEW_TFUSE [--lit] [--regress]
                           [--generated N] [--profile P] [-j J] [--keep DIR]

Runs both binaries on the same inputs with the same options and compares
standard output, standard error and exit status byte for byte:
  --lit          every .cu/.cuh under test/lit (test/lit/fuzz aside) with
                 LIT_VARIANTS (the file's own pragmas, block and thread mode,
                 interleaved replicas, two dimensions; -report for remarks);
  --regress      every program of test/fuzz/regress with every variant
                 campaign.py tries (all_variants, -skip-unsafe);
  --generated N  test/fuzz/gen.py --seed S for S = 1..N with GEN_VARIANTS
                 (--profile P: gen.py's profile, default `default`).
With none of the three, all three (N = 1000).  Prints one line per
difference (input, options, what differs) and a count per set; exits 1
if any output differs.  Each binary runs in its own empty folder, on the
same input path, so the paths in messages agree.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "fuzz"))
import campaign  # noqa: E402

LIT_VARIANTS = [
    ["-report"],
    ["-factor", "2", "-mode", "block", "-report"],
    ["-factor", "4", "-mode", "thread", "-mapping", "consecutive"],
    ["-factor", "4", "-mode", "block", "-layout", "interleaved", "-report"],
    ["-factor", "2,2", "-dim", "x,y", "-mode", "block"],
]
# A cheap subset of campaign.py's variants for the generated programs.
GEN_VARIANTS = [(2, "block", "x", None), (4, "thread", "x", "stride"), (3, "block", "y", "interleaved")]
TIMEOUT = 120


def run(tfuse, args, cwd):
    try:
        p = subprocess.run(["nice", tfuse] + args, cwd=cwd, capture_output=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def compare(base, new, path, flags, work):
    """What differs between the two binaries' runs; a pair that differs is run once more, so that a run the
    machine's load pushed past TIMEOUT is not taken for a difference (a timeout that stays is reported as one)."""
    for attempt in range(2):
        a = run(base, flags + [path], os.path.join(work, "base"))
        b = run(new, flags + [path], os.path.join(work, "new"))
        what = [name for name, x, y in zip(("status", "stdout", "stderr"), a, b) if x != y]
        if not what:
            break
    if what and "timeout" in (a[0], b[0]):
        what.append("a timeout of the %s binary" % ("base" if a[0] == "timeout" else "new"))
    return path, flags, what


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--lit", action="store_true")
    ap.add_argument("--regress", action="store_true")
    ap.add_argument("--generated", type=int, default=None, metavar="N")
    ap.add_argument("--profile", default="default", help="gen.py's profile for --generated")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR", help="write the generated programs here (else a temporary folder)")
    a = ap.parse_args()
    if not (a.lit or a.regress or a.generated):
        a.lit = a.regress = True
        a.generated = 1000
    base, new = os.path.abspath(a.base), os.path.abspath(a.new)
    work = tempfile.mkdtemp(prefix="tfuse-same-")
    for d in ("base", "new"):
        os.makedirs(os.path.join(work, d))
    sets = []
    if a.lit:
        files = []
        for dirpath, dirnames, names in os.walk(os.path.join(ROOT, "test", "lit")):
            dirnames[:] = sorted(d for d in dirnames if os.path.join(dirpath, d) != os.path.join(ROOT, "test", "lit", "fuzz"))
            files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith((".cu", ".cuh"))]
        sets.append(("lit", [(f, v) for f in files for v in LIT_VARIANTS]))
    if a.regress:
        rdir = os.path.join(ROOT, "test", "fuzz", "regress")
        files = [os.path.join(rdir, n) for n in sorted(os.listdir(rdir)) if n.endswith(".cu")]
        sets.append(("regress", [(f, ["-skip-unsafe"] + campaign.variant_flags(v))
                                 for f in files for v in campaign.all_variants()]))
    if a.generated:
        gdir = a.keep or os.path.join(work, "generated")
        os.makedirs(gdir, exist_ok=True)
        jobs = []
        for s in range(1, a.generated + 1):
            f = os.path.join(gdir, "%s-seed-%d.cu" % (a.profile, s))
            if not os.path.exists(f):
                subprocess.run(["nice", sys.executable, os.path.join(ROOT, "test", "fuzz", "gen.py"), "--seed", str(s),
                                "--profile", a.profile, "-o", f], check=True)
            jobs += [(f, ["-skip-unsafe"] + campaign.variant_flags(v)) for v in GEN_VARIANTS]
        sets.append(("generated (profile %s)" % a.profile, jobs))
    failed = False
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        for name, jobs in sets:
            same = 0
            for path, flags, what in pool.map(lambda j: compare(base, new, j[0], j[1], work), jobs):
                if what:
                    failed = True
                    print("DIFFERS (%s): %s %s" % (", ".join(what), " ".join(flags), os.path.relpath(path, ROOT)), flush=True)
                else:
                    same += 1
            print("same-output: %s: %d of %d runs identical (stdout, stderr, exit status)" % (name, same, len(jobs)))
            sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
