#!/usr/bin/env python3
"""The GPU stage of the real-code oracle (oracle.py; docs/testing.md): runs on the GPU machine from the unpacked
pack, with python3's standard library and nvcc only.

  python3 PACK/oracle_gpu.py --pack PACK --out DIR [--work DIR] [-j 16] [--run-j 3] [--gpus N] [--deadline 500]
                             [--done FILE_OR_DIR ...] [--only A,B] [--dry-run N] [--nofma-of RESULTS ...]

For each program of PACK/programs.json and each build (the original, each variant tfuse -check wrote): copies the
program's files (PACK/progs/PROG/root, the variant's files laid over them) into WORK/PROG/BUILD, builds it with the
program's own flags (`nvcc CFLAGS SOURCES -o exe LDFLAGS`; a variant also with the check runtime's object and
-lcuda), `-j` builds at a time, and runs it with each of the program's run lines (`--run-j` at a time on each of
the machine's GPUs, or `--gpus N`, the runs going round them by CUDA_VISIBLE_DEVICES; a variant
with TFUSE_CHECK=1 and TFUSE_CHECK_LOG), each under the program's timeout.  Every finished (program, build) pair
is one JSON line of DIR/oracle-results.jsonl, written as it finishes: the build's outcome, each run's outcome
(pass, fail, crash, timeout, runtime-na, waived) and, for a variant, the check log's launches per kernel
(identical, differs with the first differing element, not-checked with the reasons, fault).  A failure of one
program is recorded and stops nothing.  Nothing new starts after --deadline seconds, and runs are cut at
deadline + 60 s: the pairs not finished are not written, so a later call with --done (earlier result files, or
folders of them) does exactly those.  WORK keeps the builds, so a second call on the same machine rebuilds nothing.
--dry-run N builds the first N programs (all builds) and runs nothing: a test of the build lines without a GPU.

--nofma-of R... (earlier result files or folders) does, instead of the pack's builds, each variant build R shows
with a differing launch once more with -fmad=false added to its flags, recorded as build VARIANT+nofma.  A -check
build holds the original beside the coarsened kernel, so both are then compiled without floating-point
contraction: a kernel whose launches differ in the default build and agree here differed only in where nvcc fused
a multiply into an add (oracle.py report lists it as contraction, apart from the differences).
"""

import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # in the pack, corpus_gpu.py and gpu_run.py lie beside this file
from corpus_gpu import outcome  # noqa: E402  (the program's own verdict: exit status, PASS/FAIL text, CUDA errors)


def without_check_lines(text):
    """text less the lines the check runtime writes (tfuse-check: ...)."""
    return "\n".join(l for l in text.splitlines() if not l.startswith("tfuse-check"))

TAIL = 1500


def now():
    return time.time()


def run_proc(cmd, cwd, timeout, env=None, out_path=None):
    """Runs cmd in its own process group, killed whole at the timeout: (rc or None, stdout, stderr, seconds)."""
    t0 = now()
    try:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
    except OSError as e:
        return -999, "", "cannot start: %s" % e, 0.0
    try:
        so, se = p.communicate(timeout=max(1, timeout))
        rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        so, se = p.communicate()
        rc = None
    return rc, so.decode("utf-8", "replace"), se.decode("utf-8", "replace"), now() - t0


def first_error(msg):
    """nvcc's first error line (a link's first undefined reference before collect2's summary)."""
    for line in msg.splitlines():
        if "undefined reference" in line:
            return line.strip()[:300]
    for line in msg.splitlines():
        if "error" in line:
            return line.strip()[:300]
    return (msg.strip().splitlines() or ["?"])[-1][:300]


def read_log(path):
    """The check log's launches per kernel: {kernel: {identical, differs, not-checked, fault, first_differ,
    reasons, faults, sites}}."""
    res = {}
    if not os.path.isfile(path):
        return res
    with open(path, errors="replace") as fh:
        for line in fh:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("summary"):
                continue
            k = res.setdefault(r.get("kernel", "?"), {"identical": 0, "differs": 0, "not-checked": 0, "fault": 0,
                                                      "sites": [], "reasons": [], "faults": []})
            v = r.get("verdict", "?")
            k[v] = k.get(v, 0) + 1
            if r.get("site") and r["site"] not in k["sites"] and len(k["sites"]) < 8:
                k["sites"].append(r["site"])
            if v == "rounding":
                k["max_ulp"] = max(k.get("max_ulp", 0), r.get("max_ulp") or 0)
            if v == "differs" and "first_differ" not in k:
                k["first_differ"] = {x: r.get(x) for x in ("site", "argument", "element", "byte_offset", "original",
                                                          "coarsened", "mismatches")}
            if v == "not-checked" and r.get("reason") not in k["reasons"] and len(k["reasons"]) < 4:
                k["reasons"].append(r.get("reason"))
            if v == "fault" and len(k["faults"]) < 2:
                k["faults"].append(r.get("reason"))
    return res


NOFMA = "+nofma"  # a variant's build again with -fmad=false (--nofma-of)


def result_records(paths):
    """The records of result files, or of the *.jsonl files of folders."""
    files = []
    for p in paths or []:
        files += sorted(glob.glob(os.path.join(p, "*.jsonl"))) if os.path.isdir(p) else [p]
    for f in files:
        if not os.path.isfile(f):
            continue
        for line in open(f, errors="replace"):
            try:
                yield json.loads(line)
            except ValueError:
                pass


def differing_builds(paths):
    """(program, variant) pairs of default builds with a launch whose coarsened kernel differed."""
    return {(r["program"], r["build"]) for r in result_records(paths)
            if r.get("status") == "ran" and not r.get("build", "").endswith(NOFMA) and
            any(v.get("differs") for v in r.get("launches", {}).values())}


def done_pairs(paths):
    """(program, build) pairs that earlier result files hold."""
    return {(r["program"], r["build"]) for r in result_records(paths) if "program" in r and "build" in r}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pack", default=HERE)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--work", default="/tmp/oracle-work")
    ap.add_argument("-j", type=int, default=16, help="builds at a time")
    ap.add_argument("--run-j", type=int, default=4, help="runs at a time on each GPU")
    ap.add_argument("--gpus", type=int, default=0, help="GPUs to spread the runs over (default: all the machine has)")
    ap.add_argument("--twice", action="store_true",
                    help="TFUSE_CHECK_TWICE=1 for the variants: a launch whose original writes something else when "
                         "run again is counted 'nondeterministic', not compared")
    ap.add_argument("--ulp", type=int, default=0,
                    help="TFUSE_CHECK_ULP for the variants: floats this many units in the last place apart count as "
                         "'rounding', not 'differs' (default 0: bit for bit)")
    ap.add_argument("--deadline", type=float, default=500, help="seconds after which nothing new starts")
    ap.add_argument("--done", nargs="*", help="earlier result files (or folders of *.jsonl): their pairs are skipped")
    ap.add_argument("--nofma-of", nargs="*", metavar="RESULTS",
                    help="instead of the pack's builds: each variant build that these result files (or folders) "
                         "show with a differing launch, built again with -fmad=false added (the original kept "
                         "beside the coarsened kernel in the -check build is then compiled without contraction "
                         "too) and run under the check; recorded as build VARIANT+nofma")
    ap.add_argument("--only", help="comma-separated program names")
    ap.add_argument("--dry-run", type=int, default=0, help="build the first N programs, run nothing")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    a = ap.parse_args()
    t0 = now()
    hard = t0 + a.deadline + 60
    pack = os.path.abspath(a.pack)
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    progs = json.load(open(os.path.join(pack, "programs.json")))["programs"]
    if a.only:
        want = set(a.only.split(","))
        progs = [p for p in progs if p["name"] in want]
    if a.dry_run:
        progs = progs[:a.dry_run]
    done = done_pairs(a.done)
    slock = threading.Lock()
    out_path = os.path.join(a.out, "oracle-results.jsonl")
    out_lock = threading.Lock()
    names = run_proc(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], None, 30)[1].split("\n")
    names = [n.strip() for n in names if n.strip()]
    gpu = names[0] if names else "?"
    ngpus = a.gpus or max(1, len(names))
    next_gpu = [0]
    nvcc_version = run_proc([a.nvcc, "--version"], None, 60)[1].strip().splitlines()[-1:] or ["?"]
    print("oracle-gpu: %d programs, %d pairs done earlier, %d x GPU %s, %s" % (len(progs), len(done), ngpus, gpu,
                                                                              nvcc_version[0]), flush=True)

    check_obj = os.path.join(work, "tfuse_check.o")
    if not os.path.isfile(check_obj):
        rc, so, se, _ = run_proc([a.nvcc, "-O3", "-arch=sm_90", "-c", os.path.join(pack, "runtime", "src",
                                                                                  "check.cpp"),
                                  "-o", check_obj + ".tmp"], None, 600)
        if rc != 0:
            print("oracle-gpu: the check runtime does not build:\n" + so + se, flush=True)
            return 1
        os.replace(check_obj + ".tmp", check_obj)

    def write(rec):
        rec["gpu"] = gpu
        with out_lock:
            with open(out_path, "a") as fh:
                fh.write(json.dumps(rec, sort_keys=True) + "\n")

    def build(p, b):
        """Builds program p's build b ("original", a variant, or VARIANT+nofma: the variant with
        -fmad=false): (exe or None, error)."""
        nofma = b.endswith(NOFMA)
        src = b[:-len(NOFMA)] if nofma else b
        bdir = os.path.join(work, p["name"], b)
        exe = os.path.join(bdir, "exe.bin")
        state = os.path.join(bdir, "build.json")
        if os.path.isfile(state):
            st = json.load(open(state))
            return (exe if st["ok"] else None), st["error"]
        shutil.rmtree(bdir, ignore_errors=True)
        root = os.path.join(bdir, "root")
        shutil.copytree(os.path.join(pack, "progs", p["name"], "root"), root, symlinks=True)
        if b != "original":
            vsrc = os.path.join(pack, "progs", p["name"], src)
            for d, _, files in os.walk(vsrc):
                for f in files:
                    rel = os.path.relpath(os.path.join(d, f), vsrc)
                    os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                    shutil.copy(os.path.join(d, f), os.path.join(root, rel))
        cmd = [a.nvcc] + p["cflags"] + (["-fmad=false"] if nofma else []) + p["sources_compiled"] + \
            ["-o", exe] + p["ldflags"]
        if b != "original":
            cmd += [check_obj, "-lcuda"]
        left = hard - now()
        rc, so, se, dt = run_proc(cmd, os.path.join(root, p["dir"]), min(900, left))
        ok = rc == 0 and os.path.isfile(exe)
        err = "" if ok else ("nvcc ran past %d s" % left if rc is None else first_error(so + se))
        if rc is not None:  # a build cut by the deadline is not recorded: the next call does it again
            with open(os.path.join(bdir, "nvcc.txt"), "w") as fh:
                fh.write(" ".join(cmd) + "\n" + so + se)
            json.dump({"ok": ok, "error": err, "seconds": round(dt, 1), "cmd": " ".join(cmd)}, open(state, "w"))
        else:
            return None, "deadline"
        return (exe if ok else None), err

    def run_build(p, b, exe):
        """Runs a built program with each run line: the record's runs and launches."""
        bdir = os.path.join(work, p["name"], b)
        cwd = os.path.join(bdir, "root", p["dir"])
        runs, launches = [], {}
        for i, args in enumerate(p["runs"]):
            left = hard - now()
            if left < 5:
                return None
            env = dict(os.environ)
            with slock:  # the runs go round the GPUs
                env["CUDA_VISIBLE_DEVICES"] = str(next_gpu[0] % ngpus)
                next_gpu[0] += 1
            log = os.path.join(bdir, "check-%d.jsonl" % i)
            if os.path.exists(log):
                os.unlink(log)
            if b != "original":
                env.update({"TFUSE_CHECK": "1", "TFUSE_CHECK_LOG": log})
                if a.ulp:
                    env["TFUSE_CHECK_ULP"] = str(a.ulp)
                if a.twice:
                    env["TFUSE_CHECK_TWICE"] = "1"
            rc, so, se, dt = run_proc([exe] + args, cwd, min(p.get("timeout", 120), left), env)
            if rc is None and left < p.get("timeout", 120):
                return None  # cut by the deadline: not finished
            # The check runtime's own lines ("0 mismatches") are not the program's verdict.
            out = outcome(p, rc, so, without_check_lines(se))
            if out == "fail" and rc == p["pass"].get("waive_exit_code"):
                out = "waived"
            verdict_lines = [l.strip()[:200] for l in (so + se).splitlines()
                             if re.search(r"(?i)\b(pass(ed)?|fail(ed)?)\b", l) and not l.startswith("tfuse-check")]
            r = {"args": args, "outcome": out, "rc": rc, "seconds": round(dt, 2),
                 "verdict_text": verdict_lines[-3:],
                 "check_lines": [l[:300] for l in se.splitlines() if l.startswith("tfuse-check: ")][-12:]}
            if out != "pass":
                r["tail"] = (so[-TAIL // 2:] + "\n--- stderr ---\n" + se[-TAIL:])
            runs.append(r)
            if b != "original":
                for k, v in read_log(log).items():
                    t = launches.setdefault(k, {"identical": 0, "differs": 0, "not-checked": 0, "fault": 0,
                                                "rounding": 0, "nondeterministic": 0, "sites": [], "reasons": [],
                                                "faults": []})
                    for key in ("identical", "differs", "not-checked", "fault", "rounding", "nondeterministic"):
                        t[key] += v.get(key, 0)
                    for key in ("sites", "reasons", "faults"):
                        t[key] += [x for x in v[key] if x not in t[key]]
                    if "first_differ" in v and "first_differ" not in t:
                        t["first_differ"] = v["first_differ"]
                    if v.get("max_ulp", 0) > t.get("max_ulp", 0):
                        t["max_ulp"] = v["max_ulp"]
                try:
                    os.unlink(log)
                except OSError:
                    pass
        order = ["crash", "timeout", "fail", "runtime-na", "waived", "pass"]
        verdict = min((r["outcome"] for r in runs), key=lambda o: order.index(o) if o in order else 0)
        return {"runs": runs, "verdict": verdict, "launches": launches}

    run_pool = cf.ThreadPoolExecutor(max(1, a.run_j * ngpus))
    stats = {"built": 0, "build_failed": 0, "ran": 0, "not_run": 0}
    run_futs = []

    def one_build(p, b):
        """Builds (p, b), records a failed build, queues its runs."""
        try:
            if now() - t0 > a.deadline:
                with slock:
                    stats["not_run"] += 1
                return
            exe, err = build(p, b)
            if err == "deadline":
                with slock:
                    stats["not_run"] += 1
                return
            rec = {"program": p["name"], "build": b, "suite": p.get("suite", "")}
            if not exe:
                rec.update({"status": "build-failed", "error": err})
                write(rec)
                with slock:
                    stats["build_failed"] += 1
                return
            with slock:
                stats["built"] += 1
            if a.dry_run:
                rec.update({"status": "built (dry run)"})
                print("oracle-gpu: built %s/%s" % (p["name"], b), flush=True)
                return
            run_futs.append(run_pool.submit(one_run, p, b, exe, rec))
        except Exception as e:  # one program's failure stops nothing
            write({"program": p["name"], "build": b, "suite": p.get("suite", ""), "status": "driver-error",
                   "error": "%s: %s" % (type(e).__name__, e)})

    def one_run(p, b, exe, rec):
        try:
            if now() - t0 > a.deadline:
                with slock:
                    stats["not_run"] += 1
                return
            r = run_build(p, b, exe)
            if r is None:
                with slock:
                    stats["not_run"] += 1
                return
            rec.update(r)
            rec["status"] = "ran"
            write(rec)
            with slock:
                stats["ran"] += 1
                n = stats["ran"]
            print("oracle-gpu: [%ds] %s/%s: %s%s" % (now() - t0, p["name"], b, r["verdict"], "".join(
                " %s=%d/%d/%d/%d" % (k, v["identical"], v["differs"], v["not-checked"], v["fault"])
                for k, v in list(r["launches"].items())[:4])), flush=True)
        except Exception as e:
            write({"program": p["name"], "build": b, "suite": p.get("suite", ""), "status": "driver-error",
                   "error": "%s: %s" % (type(e).__name__, e)})

    if a.nofma_of is not None:
        differing = differing_builds(a.nofma_of)
        jobs = [(p, b + NOFMA) for p in progs for b in p["variants"]
                if (p["name"], b) in differing and (p["name"], b + NOFMA) not in done]
    else:
        jobs = [(p, b) for p in progs for b in ["original"] + p["variants"] if (p["name"], b) not in done]
    print("oracle-gpu: %d (program, build) pairs to do" % len(jobs), flush=True)
    with cf.ThreadPoolExecutor(max(1, a.j)) as ex:
        list(ex.map(lambda j: one_build(*j), jobs))
    for f in list(run_futs):
        f.result()
    run_pool.shutdown(wait=True)
    left = len(jobs) - stats["ran"] - stats["build_failed"]
    print("oracle-gpu: %ds: %d built, %d builds failed, %d ran, %d pairs left for the next call (--done %s)" % (
        now() - t0, stats["built"], stats["build_failed"], stats["ran"], 0 if a.dry_run else left, out_path),
        flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
