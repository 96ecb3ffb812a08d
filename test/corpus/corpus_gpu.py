#!/usr/bin/env python3
"""GPU stage of the tfuse corpus measurement; copied into a pack by `corpus.py gpu-pack`.

    python3 corpus_gpu.py [-j N] [--run-j R] [--timeout S] [--deadline S] [--nvcc PATH] [--work DIR]
                          [--original-runs N] [--only A,B] [--first A,B] [--ktrace-rounds N]
                          [--steady-rounds N] [--steady-only] [--steady-budget S]

Works on the pack it lies in (pack.json and progs/ beside it).  For each program it
builds the original and every variant with the program's own compile line ({src}
is the file, {exe} the binary), N compiles at a time, and runs each binary with the
program's run line in the program's folder, R runs at a time (default 1, so that
timings do not share the GPU); the originals run twice (the spread of the two times
is the noise).  A run's outcome:
  pass            exit status and output meet the program's pass criterion
  fail            it ran to the end but its own check failed (wrong results)
  crash           killed by a signal, or a CUDA error message in its output
  runtime-na      it stopped with tfuse's "is not a multiple of the coarsening
                  factor" message (thread mode; not applicable, not a failure)
  timeout         it ran past its timeout
  compile-failed  nvcc rejected the file
  not-run         --deadline came before it
Each run records its wall time and, where the program prints kernel times, their
sum in seconds (the program's kernel_time_regex, group 1 a number of seconds; by
default every "... time ... NUMBER (us|ms|s)" line).  Writes results.json beside it
and a copy into $OUT when that is set.  Standard library only.

A program with an "auto" entry (corpus.py cpu --auto: its kernels coarsened with
tfuse -factor auto in one file) also builds that file linked with the tuning
runtime (runtime/ in the pack, compiled once to WORK/tune.o; -lcuda) and runs it
twice with one wisdom file that starts empty and TFUSE_TUNE_REPORT=1: the "tune"
run (the first launch of each key tunes) and the "wisdom" run, each checked with
the program's pass criterion (tfuse-tune's report lines other than errors are
left out of what the criterion reads).  Its outcome is the first run's that did
not pass, else pass; its run_s and kernel_s are the wisdom run's (one run, as a
variant's); the keys each run tuned (kernel, grid, block, chosen, tuning ms and
launches) and the count of decisions read from the wisdom file are recorded.

--ktrace-rounds N (the steady state by GPU time): for each program whose original
and auto build passed, N rounds of the original then the auto build (its wisdom
file present, so nothing is tuned) with the program's own run line, under the
kernel tracer ktrace/ktrace.so of the pack (CUDA_INJECTION64_PATH; ktrace.c).
Each run records the GPU time of all its kernels, their launches, and its memory
copies and sets, as the GPU timed them: the one-time costs of a process (module
loading, the runtime's first dispatch) do not enter, so programs that take no
repeat count are measured too.  Recorded under the auto build's results as
"ktrace".  --steady-rounds then runs the wall-time rounds of the programs with a
steady_run line.
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # in a pack, gpu_run.py lies beside this file
sys.path.insert(1, os.path.join(os.path.dirname(os.path.dirname(HERE)), "test", "fuzz"))  # in the checkout
from gpu_run import run, find_nvcc, NA_MESSAGE  # noqa: E402

DEFAULT_TIME_RE = r"(?i)time[^\n]*?([0-9]+(?:\.[0-9]*)?(?:e[-+]?[0-9]+)?)\s*\(?(ns|us|ms|s)\)?\s*\.?\s*$"
UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
CUDA_ERROR_RE = re.compile(r"(?i)cuda error|cudaError|illegal memory access|unspecified launch failure|"
                           r"misaligned address|illegal address|device-side assert|an illegal instruction")


TUNE_FILES = ["runtime/src/tune.cpp", "runtime/src/snapshot.h", "runtime/src/wisdom.h",
              "runtime/include/tfuse/tune.h", "runtime/include/tfuse/check.h", "runtime/include/tfuse/prelude.h"]
TUNE_TABLE_RE = re.compile(r"^tfuse-tune: kernel '([^']*)' at (\S+), grid \(([0-9,]+)\) block \(([0-9,]+)\) "
                           r"smem ([0-9]+), .* \([0-9]+ SMs\)(:?)(.*)$")
TUNE_CHOSE_RE = re.compile(r"^tfuse-tune:   chose (\S+); tuning took ([0-9.]+) ms and ([0-9]+) launches")


def build_tune_obj(nvcc, root, obj):
    """Compiles the tuning runtime (ROOT/runtime/src/tune.cpp) once into obj; (ok, message)."""
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    rc, so, se, _ = run([nvcc, "-O3", "-std=c++17", "-c", os.path.join(root, TUNE_FILES[0]), "-o", obj], 600)
    return rc == 0, (so + se)[-2000:]


def auto_compile(cmd, obj):
    """A program's compile line for its -factor auto file: the tuning runtime's object beside {src}, and -lcuda."""
    return cmd.replace("{src}", "{src} " + shlex.quote(obj), 1) + " -lcuda"


def tune_lines(text):
    return [l for l in text.splitlines() if l.startswith("tfuse-tune: ")]


def without_tune_report(text):
    """text without the tuning runtime's report lines (their words, 'failed' in a disqualified candidate's
    status say, must not count against the program's own pass criterion); its errors stay."""
    return "\n".join(l for l in text.splitlines() if not l.startswith("tfuse-tune: ") or
                     l.startswith("tfuse-tune: error:"))


def parse_tune(text):
    """What one run's TFUSE_TUNE_REPORT=1 lines say: the keys it tuned, the decisions it read from the wisdom
    file, and its other messages (not tuned, warnings)."""
    res = {"tuned": [], "from_wisdom": 0, "notes": []}
    cur = None
    for l in tune_lines(text):
        m = TUNE_TABLE_RE.match(l)
        if m and m.group(6) == ":" and m.group(7) == "":
            cur = {"kernel": m.group(1), "site": m.group(2), "grid": m.group(3), "block": m.group(4),
                   "smem": int(m.group(5))}
            continue
        if m and "from the wisdom file" in m.group(7):
            res["from_wisdom"] += 1
            continue
        m = TUNE_CHOSE_RE.match(l)
        if m:
            k = dict(cur or {})
            k.update({"chosen": m.group(1), "tune_ms": float(m.group(2)), "launches": int(m.group(3))})
            res["tuned"].append(k)
            cur = None
            continue
        if cur is None and not l.startswith("tfuse-tune:   "):
            res["notes"].append(l[len("tfuse-tune: "):][:300])
    res["notes"] = res["notes"][:10]
    return res


def kernel_seconds(p, stdout):
    rx = p.get("kernel_time_regex")
    total, found = 0.0, False
    for m in re.finditer(rx or DEFAULT_TIME_RE, stdout, re.M):
        try:
            v = float(m.group(1))
        except ValueError:
            continue
        unit = m.group(2) if not rx and m.lastindex and m.lastindex >= 2 else "s"
        total += v * UNITS.get(unit, 1.0)
        found = True
    return total if found else None


def outcome(p, rc, so, se):
    crit = p.get("pass", {})
    if rc is None:
        return "timeout"
    if rc != 0 and NA_MESSAGE in so + se:
        return "runtime-na"
    if rc < 0 or CUDA_ERROR_RE.search(so + se):
        return "crash"
    ok = True
    if crit.get("exit_code") is not None and rc != crit["exit_code"]:
        ok = False
    if crit.get("stdout_regex") and not re.search(crit["stdout_regex"], so, re.M):
        ok = False
    if crit.get("fail_regex") and re.search(crit["fail_regex"], so + se, re.M):
        ok = False
    return "pass" if ok else "fail"


def state_file(work, key, ext=".json"):
    """WORK's file for the build KEY ("PROG/original", "PROG/FILE"): its state (.json), binary, wisdom file."""
    return os.path.join(work, key.replace("/", "__") + ext)


def save_state(work, key, res):
    """Writes the results res of build KEY to its state file at once (atomically), so that a later call with the
    same --work goes on from there."""
    sp = state_file(work, key)
    with open(sp + ".tmp", "w") as fh:
        json.dump(res, fh)
    os.replace(sp + ".tmp", sp)


def auto_key(p):
    """The key of the program's auto build in the results ("PROG/FILE")."""
    return p["name"] + "/" + p["auto"]["file"]


def prog_dir(p):
    """The folder the program's compile and run lines run in."""
    return os.path.join(HERE, "progs", p["name"], p.get("dir", "."))


def has_steady(p):
    """p takes part in the steady-state rounds: a steady_run line and an auto build."""
    return bool(p.get("steady_run") and p.get("auto"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=os.cpu_count() or 4, help="compiles at a time")
    ap.add_argument("--run-j", type=int, default=1, help="program runs at a time (default 1)")
    ap.add_argument("--timeout", type=float, help="seconds per run (default: each program's, else 30)")
    ap.add_argument("--deadline", type=float, default=480,
                    help="start no compile or run after S seconds (default 480; 0: none); the results so far are "
                         "written, and a second call with the same --work continues")
    ap.add_argument("--nvcc")
    ap.add_argument("--work", help="folder for binaries and per-file state (default: PACK/work)")
    ap.add_argument("--resume", help="results.json of an earlier call (path relative to the pack or absolute): "
                    "its runs are kept, except not-run ones and those of the --redo programs")
    ap.add_argument("--redo", default="", help="comma-separated programs to build and run again")
    ap.add_argument("--steady-rounds", type=int, default=3,
                    help="programs with a steady_run line and a passing auto build: after the other runs, this "
                         "many rounds of the original then the auto build (its wisdom file present) with that line "
                         "(default 3; 0: none)")
    ap.add_argument("--steady-only", action="store_true",
                    help="only the programs with a steady_run line and an auto build: the original runs once, "
                         "the auto build twice (tune, then wisdom), then the steady-state rounds; no fixed variants")
    ap.add_argument("--original-runs", type=int, default=2,
                    help="runs of each original (default 2: their spread is the noise figure; 1 where the rounds "
                         "measure)")
    ap.add_argument("--only", default="", help="comma-separated programs: only these (default: all)")
    ap.add_argument("--first", "--steady-first", dest="first", default="",
                    help="comma-separated programs whose rounds (--ktrace-rounds, --steady-rounds) go first (the "
                         "rest follow in the pack's order)")
    ap.add_argument("--ktrace-rounds", type=int, default=0,
                    help="programs whose original and auto build passed: after the other runs, this many rounds "
                         "of the original then the auto build (its wisdom file present) with the program's own "
                         "run line under the kernel tracer, which sums the GPU time of their kernels (default 0: "
                         "none)")
    ap.add_argument("--steady-budget", type=float, default=0,
                    help="start no program's steady-state rounds after S seconds of them (default 0: no limit "
                         "but --deadline)")
    a = ap.parse_args()
    t0 = time.time()
    pack = json.load(open(os.path.join(HERE, "pack.json")))
    if a.only:
        pack["programs"] = [p for p in pack["programs"] if p["name"] in a.only.split(",")]
    if a.steady_only:
        pack["programs"] = [dict(p, variants=[]) for p in pack["programs"] if has_steady(p)]
    nvcc = find_nvcc(a.nvcc)
    work = os.path.abspath(a.work or os.path.join(HERE, "work"))
    os.makedirs(work, exist_ok=True)
    if a.resume:
        redo = set(a.redo.split(","))
        names = {p["name"] for p in pack["programs"]}
        for k, r in json.load(open(os.path.join(HERE, a.resume))).get("runs", {}).items():
            if r["outcome"] != "not-run" and k.split("/")[0] not in redo and k.split("/")[0] in names:
                save_state(work, k, r)
    gate = threading.Semaphore(a.run_j)
    late = lambda: a.deadline and time.time() - t0 > a.deadline  # noqa: E731
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode().strip()
    except OSError:
        gpu = "?"

    tune_obj = os.path.join(work, "tune.o")
    tune_ok, tune_msg = True, ""
    if any(p.get("auto") for p in pack["programs"]):
        tune_ok, tune_msg = build_tune_obj(nvcc, HERE, tune_obj)
        if not tune_ok:
            print("corpus_gpu: the tuning runtime did not compile: %s" % tune_msg[-500:], flush=True)

    def keep_binaries(p, key, auto):
        return (a.steady_rounds > 0 and has_steady(p) or a.ktrace_rounds > 0 and p.get("auto")) and \
            (auto or key.endswith("/original"))

    def job(p, f, key, reps, auto=False):
        sp = state_file(work, key)
        if os.path.exists(sp):
            return key, json.load(open(sp))
        if late():
            return key, {"outcome": "not-run"}
        pdir = prog_dir(p)
        exe = state_file(work, key, ".bin")
        cmd = auto_compile(p["compile"], tune_obj) if auto else p["compile"]
        cmd = cmd.replace("{src}", f).replace("{exe}", exe)
        if nvcc != "nvcc":
            cmd = re.sub(r"^nvcc\b", nvcc, cmd)
        if auto and not tune_ok:
            rc, so, se, dt = 1, "", "the tuning runtime did not compile: " + tune_msg, 0.0
        else:
            rc, so, se, dt = run(["bash", "-c", cmd], 600, cwd=pdir)
        env = None
        if auto:  # the tune run, then the wisdom run: one wisdom file, empty at first
            wisdom = state_file(work, key, ".wisdom")
            if os.path.exists(wisdom):
                os.remove(wisdom)
            env = dict(os.environ, TFUSE_WISDOM=wisdom, TFUSE_TUNE_REPORT="1")
        if rc != 0:
            res = {"outcome": "compile-failed", "detail": (so + se)[-2000:], "compile_s": round(dt, 1)}
        else:
            res = {"compile_s": round(dt, 1), "runs": []}
            for i in range(reps):
                with gate:
                    if late():
                        break
                    rrc, rso, rse, rdt = run(["bash", "-c", p["run"].replace("{exe}", exe)],
                                             a.timeout or p.get("timeout") or 30, cwd=pdir, env=env)
                rep = {"rc": rrc, "run_s": round(rdt, 4), "kernel_s": kernel_seconds(p, rso)}
                if auto:
                    rep["phase"] = ("tune", "wisdom")[min(i, 1)]
                    rep["tune"] = parse_tune(rse)
                    res["tune_log_" + rep["phase"]] = "\n".join(tune_lines(rse))[-3000:]
                    rse = without_tune_report(rse)
                rep["outcome"] = outcome(p, rrc, rso, rse)
                res["runs"].append(rep)
                res.update({"stdout": rso[-1500:], "stderr": rse[-800:]})
                if res["runs"][-1]["outcome"] != "pass":
                    break
            if not res["runs"] or auto and len(res["runs"]) < reps and res["runs"][-1]["outcome"] == "pass":
                return key, {"outcome": "not-run"}
            last = res["runs"][-1]
            res["outcome"] = last["outcome"]
            res["run_s"] = min(r["run_s"] for r in res["runs"])
            ks = [r["kernel_s"] for r in res["runs"] if r["kernel_s"]]
            res["kernel_s"] = min(ks) if ks else None
            if auto:  # the steady state: the wisdom run alone, timed as a variant's one run
                res["run_s"], res["kernel_s"] = last["run_s"], last["kernel_s"]
                res["tune_run_s"], res["tune_kernel_s"] = res["runs"][0]["run_s"], res["runs"][0]["kernel_s"]
                res["tune"] = res["runs"][0]["tune"]
                res["wisdom"] = last["tune"] if len(res["runs"]) > 1 else None
            if res["outcome"] != "pass":
                res["detail"] = "rc=%s %s%s %s" % (last["rc"], "%s run: " % last["phase"] if auto else "",
                                                   rso[-300:].strip(), rse[-300:].strip())
            if keep_binaries(p, key, auto) and res["outcome"] == "pass":
                res["exe"] = exe  # kept for the rounds
                if auto:
                    res["wisdom_file"] = env["TFUSE_WISDOM"]
            else:
                try:
                    os.remove(exe)
                except OSError:
                    pass
        save_state(work, key, res)
        return key, res

    jobs = [(p, p["file"], p["name"] + "/original", 1 if a.steady_only else max(1, a.original_runs))
            for p in pack["programs"]]
    jobs += [(p, v["file"], p["name"] + "/" + v["file"], 1) for p in pack["programs"] for v in p["variants"]]
    jobs += [(p, p["auto"]["file"], auto_key(p), 2, True) for p in pack["programs"]
             if p.get("auto")]
    autokeys = {j[2] for j in jobs if len(j) > 4}
    print("corpus_gpu: %d programs, %d builds, nvcc %s, -j %d, --run-j %d, GPU %s" % (
        len(pack["programs"]), len(jobs), nvcc, a.j, a.run_j, gpu), flush=True)
    runs = {}
    with cf.ThreadPoolExecutor(a.j) as ex:
        futs = [ex.submit(job, *j) for j in jobs]
        for n, fu in enumerate(cf.as_completed(futs), 1):
            k, r = fu.result()
            runs[k] = r
            if n % 25 == 0:
                print("corpus_gpu: %d/%d, %.0f s" % (n, len(jobs), time.time() - t0), flush=True)
    ktrace_rounds(pack, runs, a, late, work)
    steady_rounds(pack, runs, a, late, work)
    if not late():  # every program's rounds are done: the binaries kept for them go
        for r in runs.values():
            if r.get("exe"):
                try:
                    os.remove(r.pop("exe"))
                except OSError:
                    pass
    noise = {}
    pairs = [r["runs"] for k, r in runs.items() if k.endswith("/original") and len(r.get("runs", [])) == 2]
    if pairs:
        noise["wall"] = statistics.median(abs(x[0]["run_s"] / x[1]["run_s"] - 1) for x in pairs)
        kp = [x for x in pairs if x[0]["kernel_s"] and x[1]["kernel_s"]]
        noise["kernel"] = statistics.median(abs(x[0]["kernel_s"] / x[1]["kernel_s"] - 1) for x in kp) if kp else None
    res = {"gpu": gpu, "seconds": round(time.time() - t0, 1), "noise": noise, "runs": runs}
    with open(os.path.join(HERE, "results.json"), "w") as fh:
        json.dump(res, fh, indent=0)
    if os.environ.get("OUT") and os.path.isdir(os.environ["OUT"]):
        shutil.copy(os.path.join(HERE, "results.json"), os.path.join(os.environ["OUT"], "results.json"))
    counts = {}
    for k, r in runs.items():
        kind = "original" if k.endswith("/original") else "auto" if k in autokeys else "variant"
        counts.setdefault(kind, {}).setdefault(r["outcome"], 0)
        counts[kind][r["outcome"]] += 1
    print("corpus_gpu: %.0f s; %s; noise %s" % (time.time() - t0, json.dumps(counts, sort_keys=True),
                                                json.dumps(noise)))
    for k, r in sorted(runs.items()):
        if k.endswith("/original") and r["outcome"] != "pass":
            print("original %s: %s %s" % (k, r["outcome"], r.get("detail", "")[-300:].replace("\n", " ")))
    return 0


def round_programs(pack, runs, first):
    """(program, original's results, auto build's results) of the programs whose original and auto build passed
    and whose binaries were kept, those named in first (comma-separated) first, the rest in the pack's order."""
    first = [n for n in first.split(",") if n]
    for p in sorted(pack["programs"], key=lambda p: first.index(p["name"]) if p["name"] in first else len(first)):
        o = runs.get(p["name"] + "/original")
        u = runs.get(auto_key(p)) if p.get("auto") else None
        if o and u and o.get("outcome") == "pass" and u.get("outcome") == "pass" and \
                os.path.exists(o.get("exe") or "") and os.path.exists(u.get("exe") or ""):
            yield p, o, u


def run_build(p, kind, r, line, timeout, extra_env=None):
    """Runs the program's line (a run or steady_run line) with the kept binary of build r, the "original" or the
    "auto" build (with the wisdom file its tune run wrote, so nothing is tuned), in the program's folder, with
    os.environ plus extra_env; (rc, stdout, stderr without the tuning runtime's report lines, seconds,
    outcome)."""
    pdir = prog_dir(p)
    env = dict(os.environ, **(extra_env or {}))
    if kind == "auto":
        env["TFUSE_WISDOM"] = r["wisdom_file"]
    rc, so, se, dt = run(["bash", "-c", line.replace("{exe}", r["exe"])], timeout, cwd=pdir, env=env)
    if kind == "auto":
        se = without_tune_report(se)  # its warnings are not the program's
    return rc, so, se, dt, outcome(p, rc, so, se)


def read_ktrace(path):
    """The totals ktrace.so wrote (see ktrace.c), or None when it wrote nothing."""
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return None
    res = {"kernel_ns": 0, "launches": 0, "first_ns": 0, "kernels": {}, "memcpy": None, "memset": None,
           "dropped": None}
    for l in lines:
        f = l.split("\t")
        if f[0] == "kernel" and len(f) == 5:
            n, ns, first = int(f[2]), int(f[3]), int(f[4])
            res["kernels"][f[1][:200]] = [n, ns]
            res["kernel_ns"] += ns
            res["launches"] += n
            res["first_ns"] += first
        elif f[0] in ("memcpy", "memset") and len(f) == 4:
            res[f[0]] = [int(x) for x in f[1:]]
        elif f[0] == "dropped" and len(f) == 2:
            res["dropped"] = int(f[1])
    if len(res["kernels"]) > 40:  # keep the record small: the 40 longest
        res["kernels"] = dict(sorted(res["kernels"].items(), key=lambda kv: -kv[1][1])[:40])
    return res if res["dropped"] is not None else None


def ktrace_rounds(pack, runs, a, late, work):
    """The steady state of -factor auto by GPU time: the original and the auto build (with the wisdom file its
    tune run wrote, so that nothing is tuned) run in turn with the program's own run line under ktrace.so,
    a.ktrace_rounds rounds, one program at a time.  Recorded under the auto build's results as "ktrace": per
    round and build the outcome and what read_ktrace() read; saved at once (a later call with the same --work
    goes on)."""
    if a.ktrace_rounds <= 0:
        return
    lib = os.path.join(HERE, "ktrace", "ktrace.so")
    if not os.path.exists(lib):
        print("corpus_gpu: no ktrace/ktrace.so in the pack (gpu-pack found no CUPTI): no --ktrace-rounds",
              flush=True)
        return
    for p, o, u in round_programs(pack, runs, a.first):
        if late():
            break
        if len(u.get("ktrace", {}).get("auto", [])) >= a.ktrace_rounds:
            continue  # done by an earlier call
        out = os.path.join(work, "ktrace.out")
        tracer = {"CUDA_INJECTION64_PATH": lib, "TFUSE_KTRACE_OUT": out}
        st = {"run": p["run"], "original": [], "auto": []}
        for _ in range(a.ktrace_rounds):
            if late():
                break
            for kind, r in (("original", o), ("auto", u)):
                if os.path.exists(out):
                    os.remove(out)
                rc, _, _, dt, oc = run_build(p, kind, r, p["run"], 2 * (a.timeout or p.get("timeout") or 30), tracer)
                st[kind].append({"outcome": oc, "rc": rc, "run_s": round(dt, 4), "trace": read_ktrace(out)})
        u["ktrace"] = st
        save_state(work, auto_key(p), u)


def steady_rounds(pack, runs, a, late, work):
    """The steady state of -factor auto: the original and the auto build (with the wisdom file its tune run
    wrote) run in turn with the program's steady_run line (a larger repeat count, so that one-time costs such
    as the first launch's module loading weigh little), a.steady_rounds rounds, one program at a time.
    Each round also runs the program's own run line with both builds ("original_short", "auto_short"), so that
    the report can take the marginal cost of the extra repeats (long minus short), which no one-time cost
    enters.  Recorded under the auto build's results as "steady": per round each build's wall and kernel
    seconds, and saved in its state file at once, so that a second call with the same --work (the deadline
    came first) goes on with the programs not done; the binaries are kept until every program is done."""
    if a.steady_rounds <= 0:
        return
    t_steady = time.time()
    for p, o, u in round_programs(pack, runs, a.first):
        if not has_steady(p):
            continue
        if a.steady_budget and time.time() - t_steady > a.steady_budget:
            break
        if len(u.get("steady", {}).get("auto_short", [])) >= a.steady_rounds:
            continue  # done by an earlier call
        timeout = 10 * (a.timeout or p.get("timeout") or 30)
        st = {"run": p["steady_run"], "short_run": p["run"], "original": [], "auto": [], "original_short": [],
              "auto_short": []}
        for _ in range(a.steady_rounds):
            if late():
                break
            # each round: the steady_run line, then the program's own run line (the marginal cost of the
            # extra repeats, long minus short, leaves out every one-time cost), each by both builds in turn
            for suffix, line in (("", p["steady_run"]), ("_short", p["run"])):
                for kind, r in (("original", o), ("auto", u)):
                    rc, so, _, dt, oc = run_build(p, kind, r, line, timeout)
                    st[kind + suffix].append({"rc": rc, "run_s": round(dt, 4), "kernel_s": kernel_seconds(p, so),
                                              "outcome": oc})
        u["steady"] = st
        save_state(work, auto_key(p), u)


if __name__ == "__main__":
    sys.exit(main())
