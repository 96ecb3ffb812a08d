#!/usr/bin/env python3
"""GPU stage of a tfuse fuzz campaign; copied into a pack by `campaign.py gpu-pack`.

    python3 gpu_run.py [-j N] [--timeout S] [--deadline S] [--shard I/N] [--work DIR] [--nvcc PATH]

Run from anywhere: it works on the pack it lies in (pack.json and
files.tar.xz beside it; the sources are unpacked under --work).  Writes
results.json (results-I-of-N.json for a shard) beside it, and a copy into
$OUT when that is set (the device machine's folder that comes back).
Compiles every original and variant with `nvcc -O3 -arch=sm_90 -fmad=false`,
runs each binary with a timeout, compares each variant's `hash` lines with
its original's, writes results.json beside it and prints a table.

Outcomes per variant file:
  match / mismatch   it ran (exit 0) and its hash lines equal / differ
  runtime-na         it stopped with tfuse's "is not a multiple of the
                     coarsening factor" message (thread mode, a block extent K
                     does not divide) or "... of the warp size" (thread mode
                     with warp-synchronous code, a block whose 1/K is not
                     whole warps): not applicable, not a failure
  timeout            it ran past --timeout (a hang: counted as a failure)
  variant-error      another non-zero exit, a cuda-error line, or no hash
                     lines (a crash of the coarsened program: a failure)
  compile-failed     nvcc rejected it (a failure; the CPU stage should have
                     caught it)
  original-failed    the original did not compile or run cleanly (a bug of
                     the generator or of the hand-written program, not tfuse)
Kernel x variant runs: each accepted kernel in each file that ran and was
compared.  A kernel whose own outputs (hash labels containing its name)
differ is a mismatching kernel; labels that name no kernel count for all.

Accumulating across calls and packs: results.json lists each variant that
matched as `verified`, by the SHA-256 of its original's text and its own.
`--done R...` (earlier results files) counts a variant whose two texts an
earlier call verified as matched (`carried`) without building or running it,
and a program all of whose variants are carried is not built at all: a pack
of a later tfuse, whose output for most programs is the same text, runs only
what changed, and its results carry the earlier ones forward.

Standard library only: the GPU machine has python3 and nothing else.
"""

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import sys
import time

NVCC_FLAGS = ["-O3", "-arch=sm_90", "-fmad=false"]
NA_MESSAGE = "is not a multiple of the "  # the coarsening factor, or (whole warps) the warp size


def run(cmd, timeout, cwd=None, env=None):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=cwd, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), \
            time.time() - t0
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode("utf-8", "replace"), (e.stderr or b"").decode("utf-8", "replace"), \
            time.time() - t0


def hashes(stdout):
    res = {}
    for line in stdout.splitlines():
        m = re.match(r"^hash (\S+) ([0-9a-f]{16})$", line)
        if m:
            res[m.group(1)] = m.group(2)
    return res


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_verified(paths):
    """{(original sha, variant sha)} that earlier results files verified."""
    done = set()
    for path in paths or []:
        for v in json.load(open(path)).get("verified", []):
            done.add((v["original_sha"], v["variant_sha"]))
    return done


def find_nvcc(given):
    if given:
        return given
    for c in [os.environ.get("NVCC"), "/usr/local/cuda/bin/nvcc"]:
        if c and os.path.isfile(c):
            return c
    return "nvcc"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per program run (default: 20, or 4 a kernel for programs of more than five: a "
                         "16-kernel program's original runs 4-9 s alone on an H200, three times that beside eleven "
                         "other builds and runs on its GPU)")
    ap.add_argument("--deadline", type=float, default=480,
                    help="start no compile after S seconds (default 480, to fit a 10-minute call; 0: "
                         "none); the results so far are written, and a second call with the same --work "
                         "continues")
    ap.add_argument("--shard", default="1/1", help="I/N: only programs with index %% N == I-1")
    ap.add_argument("--nvcc")
    ap.add_argument("--work", help="folder for sources, binaries and per-file state (default: PACK/work)")
    ap.add_argument("--done", nargs="+", metavar="RESULTS",
                    help="earlier results files: a variant whose original's and own text they verified is carried")
    a = ap.parse_args()
    t0 = time.time()
    here = os.path.dirname(os.path.abspath(__file__))
    pack = json.load(open(os.path.join(here, "pack.json")))
    nvcc = find_nvcc(a.nvcc)
    si, sn = (int(x) for x in a.shard.split("/"))
    progs = [p for n, p in enumerate(pack["programs"]) if n % sn == si - 1]
    work = os.path.abspath(a.work or os.path.join(here, "work"))
    src_root = here
    tarball = os.path.join(here, "files.tar.xz")
    if not os.path.exists(tarball):
        tarball = os.path.join(here, "files.tar.gz")  # a pack of an earlier campaign.py
    if os.path.exists(tarball):
        src_root = os.path.join(work, "src")
        if not os.path.isdir(src_root):
            # Shards of one pack started together share the folder: each extracts into its own, and the
            # first to finish names it; the others drop theirs.
            tmp = "%s.tmp%d" % (src_root, os.getpid())
            with tarfile.open(tarball) as tf:
                tf.extractall(tmp)
            try:
                os.rename(tmp, src_root)
            except OSError:
                if not os.path.isdir(src_root):
                    raise
                shutil.rmtree(tmp, ignore_errors=True)

    # Each text's digest (a pack records them; an earlier pack's are computed here), and what --done verified.
    verified = read_verified(a.done)
    for p in progs:
        p.setdefault("original_sha", sha256_of(os.path.join(src_root, p["original"])))
        for v in p["variants"]:
            v.setdefault("sha", sha256_of(os.path.join(src_root, v["file"])))
            v["carried"] = (p["original_sha"], v["sha"]) in verified
    files = []
    timeout_of = {}  # file -> seconds
    for p in progs:
        t = a.timeout or max(20.0, 4.0 * len(p.get("kernels") or []))
        timeout_of[p["original"]] = t
        for v in p["variants"]:
            timeout_of[v["file"]] = t
    for p in progs:
        todo = [v["file"] for v in p["variants"] if not v["carried"]]
        if todo or not p["variants"]:
            files += [p["original"]] + todo
    print("gpu_run: %d programs, %d files, nvcc %s, -j %d" % (len(progs), len(files), nvcc, a.j), flush=True)

    def state_path(f, what):
        return os.path.join(work, f + "." + what + ".json")

    def build_and_run(f):
        """Compiles and runs one file, once (the state files make a second call skip it)."""
        rs = state_path(f, "run")
        if os.path.exists(rs):
            return json.load(open(rs))
        if a.deadline and time.time() - t0 > a.deadline:
            return None
        binp = os.path.join(work, f + ".bin")
        os.makedirs(os.path.dirname(binp), exist_ok=True)
        rc, so, se, dt = run([nvcc] + NVCC_FLAGS + ["-o", binp, os.path.join(src_root, f)], 600)
        if rc != 0:
            res = {"compiled": False, "compile_msg": (so + se)[-3000:], "compile_s": round(dt, 2)}
        else:
            rrc, rso, rse, rdt = run([binp], timeout_of.get(f, a.timeout or 20.0), cwd=os.path.dirname(binp))
            res = {"compiled": True, "compile_s": round(dt, 2), "rc": rrc, "stdout": rso[-20000:],
                   "stderr": rse[-3000:], "run_s": round(rdt, 3)}
            try:
                os.remove(binp)
            except OSError:
                pass
        with open(rs + ".tmp", "w") as fh:
            json.dump(res, fh)
        os.replace(rs + ".tmp", rs)
        return res

    done = 0
    states = {}
    with cf.ThreadPoolExecutor(a.j) as ex:
        futs = {ex.submit(build_and_run, f): f for f in files}
        for fu in cf.as_completed(futs):
            states[futs[fu]] = fu.result()
            done += 1
            if done % 100 == 0:
                print("gpu_run: %d/%d files, %.0f s" % (done, len(files), time.time() - t0), flush=True)

    res = compare(progs, states)
    res["seconds"] = round(time.time() - t0, 1)
    res["shard"] = a.shard
    name = "results.json" if sn == 1 else "results-%d-of-%d.json" % (si, sn)
    with open(os.path.join(here, name), "w") as fh:
        json.dump(res, fh, indent=1)
    if os.environ.get("OUT") and os.path.isdir(os.environ["OUT"]):
        shutil.copy(os.path.join(here, name), os.path.join(os.environ["OUT"], name))
    print_table(res)
    print("results: %s%s" % (os.path.join(here, name),
                            " (and $OUT/%s)" % name if os.environ.get("OUT") else ""))
    s = res["summary"]
    return 1 if s["mismatches"] or s["variant_errors"] or s["timeouts"] or s["compile_failures"] else 0


def classify(st):
    if st is None:
        return "not-run", {}
    if not st["compiled"]:
        return "compile-failed", {}
    if st["rc"] is None:
        return "timeout", {}
    if st["rc"] != 0 and NA_MESSAGE in st["stderr"]:
        return "runtime-na", {}
    h = hashes(st["stdout"])
    if st["rc"] != 0 or "cuda-error" in st["stdout"] or not h:
        return "error", h
    return "ok", h


def compare(progs, states):
    s = {"programs": len(progs), "files": 0, "kernel_variant_runs": 0, "matches": 0, "mismatches": 0,
         "runtime_na": 0, "timeouts": 0, "compile_failures": 0, "variant_errors": 0, "original_failures": 0,
         "not_run": 0, "files_matching": 0, "files_mismatching": 0, "carried_files": 0, "carried_runs": 0}
    mism = []
    others = []
    verified = []  # variants that matched, by their texts' digests (--done of a later call)

    def verify(p, v):
        verified.append({"original_sha": p["original_sha"], "variant_sha": v["sha"], "runs": len(v["accepted"]),
                         "file": v["file"]})

    for p in progs:
        for v in p["variants"]:
            if v.get("carried"):  # verified by an earlier call: the same two texts
                s["files"] += 1
                s["carried_files"] += 1
                s["carried_runs"] += len(v["accepted"])
                s["kernel_variant_runs"] += len(v["accepted"])
                s["matches"] += len(v["accepted"])
                s["files_matching"] += 1
                verify(p, v)
        if p["variants"] and all(v.get("carried") for v in p["variants"]):
            continue
        ost, oh = classify(states.get(p["original"]))
        s["files"] += 1
        if ost != "ok":
            s["original_failures"] += 1
            others.append({"seed": p["seed"], "variant": "original", "outcome": "original-" + ost,
                           "detail": detail(states.get(p["original"]))})
            continue
        for v in p["variants"]:
            if v.get("carried"):
                continue
            s["files"] += 1
            st = states.get(v["file"])
            out, h = classify(st)
            acc = v["accepted"]
            if out == "not-run":
                s["not_run"] += 1
                continue
            if out == "runtime-na":
                s["runtime_na"] += 1
                continue
            if out == "compile-failed":
                s["compile_failures"] += 1
                others.append({"seed": p["seed"], "variant": v["tag"], "outcome": out, "detail": detail(st)})
                continue
            if out == "timeout":
                s["timeouts"] += 1
                others.append({"seed": p["seed"], "variant": v["tag"], "outcome": out, "detail": ""})
                continue
            if out == "error":
                s["variant_errors"] += 1
                others.append({"seed": p["seed"], "variant": v["tag"], "outcome": "variant-error",
                               "detail": detail(st)})
                continue
            bad = sorted(l for l in set(oh) | set(h) if oh.get(l) != h.get(l))
            s["kernel_variant_runs"] += len(acc)
            if not bad:
                s["matches"] += len(acc)
                s["files_matching"] += 1
                verify(p, v)
                continue
            s["files_mismatching"] += 1
            owners = {k for k in p["kernels"] if any(k in l for l in bad)}
            unowned = [l for l in bad if not any(k in l for k in p["kernels"])]
            badk = [k for k in acc if k in owners or unowned]
            if not badk:  # outputs of unaccepted kernels differ: blame the file
                badk = list(acc)
            s["mismatches"] += len(badk)
            s["matches"] += len(acc) - len(badk)
            mism.append({"seed": p["seed"], "variant": v["tag"], "flags": " ".join(v["flags"]),
                         "kernels": badk, "labels": bad})
    return {"summary": s, "mismatches": mism, "failures": others, "verified": verified}


def detail(st):
    if not st:
        return ""
    if not st.get("compiled"):
        lines = [l for l in st.get("compile_msg", "").splitlines() if "error" in l]
        return (lines or [st.get("compile_msg", "")[-200:]])[0][:300]
    msg = [l for l in st.get("stdout", "").splitlines() if l.startswith("cuda-error")]
    return "rc=%s %s %s" % (st.get("rc"), " ".join(msg)[:200], st.get("stderr", "")[-200:].strip())


def merge(results):
    """One result from several (the shards of one pack)."""
    res = {"summary": {}, "mismatches": [], "failures": [], "verified": [], "seconds": 0}
    for r in results:
        for k, v in r["summary"].items():
            res["summary"][k] = res["summary"].get(k, 0) + v
        res["mismatches"] += r["mismatches"]
        res["failures"] += r["failures"]
        res["verified"] += r.get("verified", [])
        res["seconds"] += r.get("seconds") or 0
    return res


def print_table(res):
    s = res["summary"]
    print("== tfuse fuzz campaign (GPU stage) ==")
    rows = [("programs", s["programs"]), ("files (originals + variants)", s["files"]),
            ("kernel x variant runs checked", s["kernel_variant_runs"]), ("  matches", s["matches"]),
            ("  mismatches", s["mismatches"]),
            ("variant files matching / mismatching", "%d / %d" % (s["files_matching"], s["files_mismatching"])),
            ("runtime N/A (divisibility)", s["runtime_na"]), ("timeouts", s["timeouts"]),
            ("compile failures", s["compile_failures"]), ("variant errors (crash, cuda-error)",
                                                          s["variant_errors"]),
            ("original failures (generator)", s["original_failures"]), ("not run (deadline)", s["not_run"]),
            ("carried (verified by --done)", "%d files, %d runs" % (s.get("carried_files", 0),
                                                                   s.get("carried_runs", 0)))]
    for k, v in rows:
        print("%-40s %s" % (k, v))
    if res.get("seconds") is not None:
        print("%-40s %s" % ("seconds", res["seconds"]))
    if res["mismatches"]:
        print("mismatches (seed, variant, kernels, labels):")
        for m in res["mismatches"]:
            print("  seed %-6d %-26s %s  [%s]" % (m["seed"], m["variant"], ",".join(m["kernels"]),
                                                 ",".join(m["labels"])))
    if res["failures"]:
        print("other failures:")
        for f in res["failures"]:
            print("  seed %-6d %-26s %-16s %s" % (f["seed"], f["variant"], f["outcome"], f["detail"][:150]))


if __name__ == "__main__":
    sys.exit(main())
