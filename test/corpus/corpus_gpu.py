#!/usr/bin/env python3
"""GPU stage of the tfuse corpus measurement; copied into a pack by `corpus.py gpu-pack`.

    python3 corpus_gpu.py [-j N] [--run-j R] [--timeout S] [--deadline S] [--nvcc PATH] [--work DIR]

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
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
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
    a = ap.parse_args()
    t0 = time.time()
    pack = json.load(open(os.path.join(HERE, "pack.json")))
    nvcc = find_nvcc(a.nvcc)
    work = os.path.abspath(a.work or os.path.join(HERE, "work"))
    os.makedirs(work, exist_ok=True)
    if a.resume:
        redo = set(a.redo.split(","))
        names = {p["name"] for p in pack["programs"]}
        for k, r in json.load(open(os.path.join(HERE, a.resume))).get("runs", {}).items():
            if r["outcome"] != "not-run" and k.split("/")[0] not in redo and k.split("/")[0] in names:
                with open(os.path.join(work, k.replace("/", "__") + ".json"), "w") as fh:
                    json.dump(r, fh)
    gate = threading.Semaphore(a.run_j)
    late = lambda: a.deadline and time.time() - t0 > a.deadline  # noqa: E731
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode().strip()
    except OSError:
        gpu = "?"

    def job(p, f, key, reps):
        sp = os.path.join(work, key.replace("/", "__") + ".json")
        if os.path.exists(sp):
            return key, json.load(open(sp))
        if late():
            return key, {"outcome": "not-run"}
        pdir = os.path.join(HERE, "progs", p["name"], p.get("dir", "."))
        exe = os.path.join(work, key.replace("/", "__") + ".bin")
        cmd = p["compile"].replace("{src}", f).replace("{exe}", exe)
        if nvcc != "nvcc":
            cmd = re.sub(r"^nvcc\b", nvcc, cmd)
        rc, so, se, dt = run(["bash", "-c", cmd], 600, cwd=pdir)
        if rc != 0:
            res = {"outcome": "compile-failed", "detail": (so + se)[-2000:], "compile_s": round(dt, 1)}
        else:
            res = {"compile_s": round(dt, 1), "runs": []}
            for _ in range(reps):
                with gate:
                    if late():
                        break
                    rrc, rso, rse, rdt = run(["bash", "-c", p["run"].replace("{exe}", exe)],
                                             a.timeout or p.get("timeout") or 30, cwd=pdir)
                res["runs"].append({"rc": rrc, "run_s": round(rdt, 4), "kernel_s": kernel_seconds(p, rso),
                                    "outcome": outcome(p, rrc, rso, rse)})
                res.update({"stdout": rso[-1500:], "stderr": rse[-800:]})
                if res["runs"][-1]["outcome"] != "pass":
                    break
            if not res["runs"]:
                return key, {"outcome": "not-run"}
            last = res["runs"][-1]
            res["outcome"] = last["outcome"]
            res["run_s"] = min(r["run_s"] for r in res["runs"])
            ks = [r["kernel_s"] for r in res["runs"] if r["kernel_s"]]
            res["kernel_s"] = min(ks) if ks else None
            if res["outcome"] != "pass":
                res["detail"] = "rc=%s %s %s" % (last["rc"], rso[-300:].strip(), rse[-300:].strip())
            try:
                os.remove(exe)
            except OSError:
                pass
        with open(sp + ".tmp", "w") as fh:
            json.dump(res, fh)
        os.replace(sp + ".tmp", sp)
        return key, res

    jobs = [(p, p["file"], p["name"] + "/original", 2) for p in pack["programs"]]
    jobs += [(p, v["file"], p["name"] + "/" + v["file"], 1) for p in pack["programs"] for v in p["variants"]]
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
        kind = "original" if k.endswith("/original") else "variant"
        counts.setdefault(kind, {}).setdefault(r["outcome"], 0)
        counts[kind][r["outcome"]] += 1
    print("corpus_gpu: %.0f s; %s; noise %s" % (time.time() - t0, json.dumps(counts), json.dumps(noise)))
    for k, r in sorted(runs.items()):
        if k.endswith("/original") and r["outcome"] != "pass":
            print("original %s: %s %s" % (k, r["outcome"], r.get("detail", "")[-300:].replace("\n", " ")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
