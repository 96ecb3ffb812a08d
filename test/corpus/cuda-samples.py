#!/usr/bin/env python3
"""tfuse on a whole codebase: NVIDIA's cuda-samples, configured with CMake, coarsened in one project run.

  cuda-samples.py layout --mirror GITDIR [--commit C] [--work DIR]
      Exports the tree (the blobs the mirror holds; a snapshot may lack a few large doc and data blobs) into
      DIR/src, sets every CMakeLists' CMAKE_CUDA_ARCHITECTURES to 90, leaves out the samples that need libraries
      not installed here (EXCLUDED), and configures it into DIR/build with CMAKE_EXPORT_COMPILE_COMMANDS=ON
      (configure only).  Prints the database's entries, the CUDA files and the __global__ kernels defined in them.
  cuda-samples.py build-time --work DIR [-j 2]
      Builds the whole tree once with `cmake --build BUILD -j J -- -k` in a build folder of its own
      (DIR/build-time, configured as DIR/build is; -k: a target whose link fails for want of a library does not
      stop the others) and records the wall time and the machine's load in DIR/build-time.json.
  cuda-samples.py cpu --work DIR [--tfuse PATH] [--factor 4] [-j 2]
      Runs the one command, `tfuse -factor 4 -mode block -skip-unsafe -all-kernels -keep-going -p build -out-dir
      out -report-json report.json` in DIR, under /usr/bin/time -v (wall time, peak memory); where this tfuse
      lacks -all-kernels or -keep-going, one run per CUDA file with -kernel for each __global__ function the file
      defines (a regex) instead.  Lays the output over a copy of the tree (DIR/tree-K4, hard links but for the
      files tfuse wrote) and compiles every emitted .cu with its own database command there (-c, a temporary
      object).  Prints and writes (DIR/cpu.json, DIR/cpu.md) the counts: files, parsed, kernels coarsened and
      left unchanged by reason, emitted files that nvcc compiled or rejected.  --factor auto makes DIR/tree-auto.
  cuda-samples.py speed --work DIR [-n 10] [--rounds 2] [--tag K4]
      tfuse against nvcc file by file: N CUDA files that run TAG wrote, the per-file tfuse command and the file's
      database command in turn, best of R rounds; wall and CPU time (DIR/speed.md).
  cuda-samples.py gpu-pack --work DIR --to PACK
      A self-contained folder for a GPU machine (nvcc and the CUDA toolkit, nothing else): the self-checking
      samples (SELF_CHECKING) in three forms, the original tree, the K = 4 block tree and the -factor auto tree
      (run `cpu` and `cpu --factor auto` first), the tuning runtime, and run.sh.
  bash PACK/run.sh [-j N]                                   # on the GPU machine
      (cuda-samples.py gpu-run) builds each sample in each form with nvcc -arch=sm_90, runs it (an auto build
      twice, with one wisdom file: tune, then wisdom) and prints a table; results.json beside it and in $OUT.
"""

import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)  # in a pack, corpus_gpu.py and gpu_run.py lie beside this file
sys.path.insert(1, os.path.join(ROOT, "test", "fuzz"))  # in the checkout, gpu_run.py
from gpu_run import run  # noqa: E402
from corpus_gpu import TUNE_FILES  # noqa: E402

COMMIT = "c94ff366aed18c797b8a85dfaac7817b0228b420"  # the commit the corpus was measured at
# Samples (or sample folders) that need libraries not installed on the project's machines.
EXCLUDED = ["7_libNVVM", "nvJPEG", "nvJPEG_encoder", "watershedSegmentationNPP", "simpleCUFFT_callback"]
ARCH_RE = re.compile(r"set\s*\(\s*CMAKE_CUDA_ARCHITECTURES\b[^)]*\)")
GLOBAL_RE = re.compile(r"__global__\s+(?:[^;{()]*?\s)?(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(")
TFUSE_TIMEOUT = 3600
CPU_SECONDS = 0.0  # of the tfuse runs so far (timed())
NVCC_TIMEOUT = 600


def work_paths(work):
    w = os.path.abspath(work)
    return {"work": w, "src": os.path.join(w, "src"), "build": os.path.join(w, "build")}


# ---- layout ------------------------------------------------------------------------
def export_tree(gitdir, commit, dst):
    """Writes commit's files into dst, those whose blobs the mirror holds; returns the paths of those it lacks."""
    ls = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", commit], stdout=subprocess.PIPE,
                        check=True).stdout.decode("utf-8", "surrogateescape")
    entries = []
    for e in ls.split("\0"):
        if e:
            meta, path = e.split("\t", 1)
            mode, kind, obj = meta.split()
            if kind == "blob":
                entries.append((mode, obj, path))
    batch = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    missing = []
    for mode, obj, path in entries:
        batch.stdin.write((obj + "\n").encode())
        batch.stdin.flush()
        head = batch.stdout.readline().decode().split()
        if head[1] == "missing":
            missing.append(path)
            continue
        data = batch.stdout.read(int(head[2]))
        batch.stdout.read(1)  # the newline after the contents
        out = os.path.join(dst, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if mode == "120000":  # a symbolic link
            os.symlink(data.decode(), out)
            continue
        with open(out, "wb") as fh:
            fh.write(data)
        if mode == "100755":
            os.chmod(out, 0o755)
    batch.stdin.close()
    batch.wait()
    return missing


def patch_cmake(src):
    """CMAKE_CUDA_ARCHITECTURES 90 in every CMakeLists; the EXCLUDED folders' add_subdirectory lines removed.
    Returns (CMakeLists changed, add_subdirectory lines removed)."""
    changed, removed = 0, 0
    drop = re.compile(r"^\s*add_subdirectory\s*\(\s*(%s)\s*\)\s*$\n?" % "|".join(map(re.escape, EXCLUDED)), re.M)
    for d, _, files in os.walk(src):
        if "CMakeLists.txt" not in files:
            continue
        f = os.path.join(d, "CMakeLists.txt")
        text = open(f, encoding="utf-8", errors="surrogateescape").read()
        new = ARCH_RE.sub("set(CMAKE_CUDA_ARCHITECTURES 90)", text)
        new, n = drop.subn("", new)
        removed += n
        if new != text:
            changed += 1
            with open(f, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(new)
    return changed, removed


def configure(src, build):
    shutil.rmtree(build, ignore_errors=True)
    p = subprocess.run(["cmake", "-S", src, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                        "-DCMAKE_CUDA_COMPILER=" + (shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.exit("cmake configure failed:\n" + p.stdout.decode()[-3000:])


def find_kernels(text):
    """The __global__ functions defined (with a body) in text, by regex: [(name, line)]."""
    clean = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    res = []
    for m in GLOBAL_RE.finditer(clean):
        depth, i = 0, m.end() - 1
        while i < len(clean):
            depth += {"(": 1, ")": -1}.get(clean[i], 0)
            i += 1
            if depth == 0:
                break
        rest = clean[i:i + 300].lstrip()
        if rest.startswith("{") or rest.startswith("__") and "{" in rest.split(";")[0] or \
                rest.startswith("->") and "{" in rest.split(";")[0]:
            res.append((m.group(1), clean.count("\n", 0, m.start(1)) + 1))
    return res


def database(build):
    return json.load(open(os.path.join(build, "compile_commands.json")))


def cuda_files(db):
    return sorted({e["file"] for e in db if e["file"].endswith(".cu")})


def tree_stats(build):
    db = database(build)
    cu = cuda_files(db)
    kernels = {f: find_kernels(open(f, errors="replace").read()) for f in cu}
    return db, cu, kernels


def cmd_layout(a):
    w = work_paths(a.work)
    os.makedirs(w["work"], exist_ok=True)
    shutil.rmtree(w["src"], ignore_errors=True)
    missing = export_tree(a.mirror, a.commit, w["src"])
    changed, removed = patch_cmake(w["src"])
    configure(w["src"], w["build"])
    db, cu, kernels = tree_stats(w["build"])
    info = {"commit": a.commit, "missing_blobs": missing, "cmakelists_patched": changed,
            "excluded": EXCLUDED, "subdirectories_removed": removed, "database_entries": len(db),
            "cuda_files": len(cu), "kernels": sum(len(v) for v in kernels.values())}
    with open(os.path.join(w["work"], "layout.json"), "w") as fh:
        json.dump(info, fh, indent=1)
    print("layout: %s at %s; %d blobs absent from the snapshot (skipped): %s" % (
        w["src"], a.commit[:12], len(missing), ", ".join(missing)))
    print("layout: %d CMakeLists set to CMAKE_CUDA_ARCHITECTURES 90; %d add_subdirectory lines removed (%s)" % (
        changed, removed, ", ".join(EXCLUDED)))
    print("layout: configured %s: %d database entries, %d CUDA files, %d __global__ kernels defined in them" % (
        w["build"], info["database_entries"], info["cuda_files"], info["kernels"]))
    return 0


# ---- build-time --------------------------------------------------------------------
def cmd_build_time(a):
    w = work_paths(a.work)
    bt = os.path.join(w["work"], "build-time")
    configure(w["src"], bt)
    load0 = os.getloadavg()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    p = subprocess.run(["cmake", "--build", bt, "-j", str(a.j), "--", "-k"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    dt = time.time() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    log = p.stdout.decode(errors="replace")
    res = {"command": "cmake --build build -j %d -- -k" % a.j, "rc": p.returncode, "wall_s": round(dt, 1),
           "cpu_s": round(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, 1),
           "failed_targets": sorted(set(re.findall(r"\*\*\* \[\S+: (\S+)\] Error", log))),
           "loadavg_before": load0, "loadavg_after": os.getloadavg(), "cpus": os.cpu_count(),
           "tail": log[-2000:]}
    with open(os.path.join(w["work"], "build-time.json"), "w") as fh:
        json.dump(res, fh, indent=1)
    print("build-time: `%s` rc %d, %.1f s wall, %.1f s CPU, %d targets failed; load average before %s, after %s" % (
        res["command"], p.returncode, dt, res["cpu_s"], len(res["failed_targets"]), "/".join("%.2f" % x for x in load0),
        "/".join("%.2f" % x for x in res["loadavg_after"])))
    if not a.keep:
        shutil.rmtree(bt)
    return 0


# ---- cpu ---------------------------------------------------------------------------
WARN_LEFT_RE = re.compile(r"^(\S+?):(\d+):\d+: warning: kernel '([^']*)' left unchanged: (.*)$", re.M)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def tfuse_has(tfuse, *flags):
    text = run([tfuse, "-help"], 30)[1]
    return all(re.search(r"^\s*%s\b" % re.escape(f), text, re.M) for f in flags)


def reason_class(msg):
    """A refusal or error message without names, numbers and locations: the class it is counted under."""
    r = re.sub(r"^\S*?(?::\d+:\d+:|\(\d+\):) (?:fatal )?(?:error|warning): ", "", msg)
    r = re.sub(r"'[^']*'|\"[^\"]*\"", "'_'", r)
    r = re.sub(r"\b[A-Za-z_]\w*\.(x|y|z)\b", "_._", r)
    r = re.sub(r"\d+", "N", r)
    return r.strip()


def local_includes(path, seen=None):
    """path and the files it includes with #include "..." that exist beside it (recursively)."""
    seen = seen if seen is not None else []
    if path in seen or not os.path.isfile(path):
        return seen
    seen.append(path)
    for inc in INCLUDE_RE.findall(open(path, errors="replace").read()):
        local_includes(os.path.normpath(os.path.join(os.path.dirname(path), inc)), seen)
    return seen


def timed(cmd, timeout, cwd):
    """Runs cmd under /usr/bin/time -v: (rc or None on timeout, stdout, stderr, wall s, peak RSS in KiB);
    the CPU seconds it used are added to CPU_SECONDS."""
    global CPU_SECONDS
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        rc, so, se, dt = run(["/usr/bin/time", "-v", "-o", tf.name] + cmd, timeout, cwd=cwd)
        tv = tf.read()
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", tv)
    CPU_SECONDS += sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([0-9.]+)", tv))
    return rc, so, se, dt, int(m.group(1)) if m else None


def one_command(a, w, tfuse, factor, out, files, tag):
    """The whole tree (or the CUDA files given) in one tfuse run: its own summary and JSON report."""
    report = os.path.join(w["work"], "report-%s.json" % tag)
    cmd = [tfuse, "-factor", factor, "-mode", a.mode, "-skip-unsafe", "-all-kernels", "-keep-going", "-p", "build",
           "-out-dir", os.path.relpath(out, w["work"])] + [os.path.relpath(f, w["work"]) for f in files or []]
    if tfuse_has(tfuse, "-report-json"):
        cmd += ["-report-json", report]
    if a.jobs > 1:
        cmd += ["-j", str(a.jobs)]
    if os.path.exists(report):
        os.remove(report)
    rc, so, se, dt, rss = timed(cmd, TFUSE_TIMEOUT, w["work"])
    res = {"mode": "one command", "command": " ".join(shlex.quote(c) for c in cmd[1:]), "rc": rc,
           "wall_s": round(dt, 1), "peak_rss_kib": rss, "stderr_tail": se[-20000:]}
    if os.path.exists(report):
        rep = json.load(open(report))
        res["report_files"] = [dict(f, file=src_rel(w, f["file"])) for f in rep["files"]]
        res["kernels"] = [{"name": k["kernel"], "file": src_rel(w, k["file"]), "line": k["line"],
                           "decision": "coarsened" if k["decision"] == "coarsened" else "left unchanged",
                           "reason": reason_class(k["reason"]) if k["decision"] != "coarsened" else "",
                           "example": k["reason"]} for k in rep["kernels"]]
    return res


def src_rel(w, f):
    """A path of tfuse's report relative to the tree (the report's are relative to the project's root)."""
    if os.path.isabs(f):
        return os.path.relpath(f, w["src"])
    for base in (w["work"], w["src"], os.path.join(w["src"], "Samples")):
        if os.path.exists(os.path.join(base, f)):
            return os.path.relpath(os.path.join(base, f), w["src"])
    return f


def per_file(a, w, tfuse, factor, out, files, kernels_of):
    """The fallback for a tfuse without -all-kernels and -keep-going: one run per CUDA file with -kernel for each
    __global__ function the file and the local headers it includes define.  A file that fails is parsed alone
    (-dump-after parse) to tell a parse failure from a refusal; where a kernel made the whole file fail, each
    kernel is tried alone and the file is run again with those that passed (what -keep-going does)."""
    base = [tfuse, "-factor", factor, "-mode", a.mode, "-skip-unsafe", "-p", "build", "-root", "src",
            "-out-dir", os.path.relpath(out, w["work"])]

    def attempt(f, ks, outdir):
        cmd = base[:-1] + [outdir] + [x for k in ks for x in ("-kernel", k)] + [f]
        return timed(cmd, a.timeout, w["work"])

    def one(f):
        ks = sorted({k for k, _, _ in kernels_of[f]})
        r = {"file": f, "kernels": ks, "runs": []}
        if not ks:
            r["outcome"] = "no kernel"
            return r
        rc, so, se, dt, rss = attempt(f, ks, os.path.relpath(out, w["work"]))
        r["runs"].append({"kernels": ks, "rc": rc, "wall_s": round(dt, 2), "peak_rss_kib": rss,
                          "stderr": se[-6000:]})
        if rc == 0:
            r["outcome"] = "written"
            return r
        if rc is None:
            r["outcome"] = "hang"
            return r
        if rc < 0 or rc > 2:
            r["outcome"] = "crash"
            return r
        prc, _, pse, pdt, _ = timed([tfuse, "-dump-after", "parse", "-p", "build", f], a.timeout, w["work"])
        if prc != 0:
            r["outcome"] = "hang" if prc is None else "parse failed"
            r["parse_stderr"] = pse[-6000:]
            return r
        # the file parses: some kernel refused the whole file; each alone, then those that passed together
        alone = {}
        with tempfile.TemporaryDirectory() as td:
            for k in ks:
                krc, _, kse, _, _ = attempt(f, [k], td)
                alone[k] = {"rc": krc, "stderr": kse[-3000:]}
        r["alone"] = alone
        good = [k for k in ks if alone[k]["rc"] == 0]
        if good:
            rc, so, se, dt, rss = attempt(f, good, os.path.relpath(out, w["work"]))
            r["runs"].append({"kernels": good, "rc": rc, "wall_s": round(dt, 2), "peak_rss_kib": rss,
                              "stderr": se[-6000:]})
        r["outcome"] = "written" if good and rc == 0 else "refused"
        return r

    t0 = time.time()
    with cf.ThreadPoolExecutor(a.j) as ex:
        recs = list(ex.map(one, files))
    return {"mode": "per file", "command": " ".join(base[1:]) + " -kernel ... FILE", "wall_s": round(time.time() -
            t0, 1), "peak_rss_kib": max((x["peak_rss_kib"] or 0 for r in recs for x in r["runs"]), default=0),
            "files": recs}


def kernel_decisions(res, kernels_of):
    """Per kernel (defining file, name, line): ("coarsened" | "left unchanged" | "file failed", reason class,
    example message), from the per-file runs' messages."""
    dec = {}
    for r in res["files"]:
        ks = kernels_of[r["file"]]
        last = r["runs"][-1] if r["runs"] else None
        for k in ks:
            if r["outcome"] in ("parse failed", "hang", "crash"):
                msg = first_error(r.get("parse_stderr") or (last or {}).get("stderr", "")) if r["outcome"] == \
                    "parse failed" else r["outcome"]
                d = ("file failed", r["outcome"] + ": " + reason_class(msg), msg)
            elif r.get("alone") and r["alone"].get(k[0], {}).get("rc") not in (0, None):
                msg = first_error(r["alone"][k[0]]["stderr"])
                d = ("left unchanged", "refused the file: " + reason_class(msg), msg)
            else:
                left = {m.group(3): m for m in WARN_LEFT_RE.finditer(last["stderr"])} if last else {}
                if last and last["rc"] == 0 and k[0] not in left:
                    d = ("coarsened", "", "")
                elif k[0] in left:
                    d = ("left unchanged", reason_class(left[k[0]].group(4)), left[k[0]].group(0))
                else:
                    d = ("left unchanged", "other", first_error((last or {}).get("stderr", "")))
            prev = dec.get(k)
            if prev is None or prev[0] == "coarsened" and d[0] != "coarsened":
                dec[k] = d  # a kernel of a shared header: changed only where every file could change it
    return dec


def first_error(msg):
    """The first error line of a tfuse or nvcc message (or its last line)."""
    for line in msg.splitlines():
        if re.search(r"\berror\b", line) and not re.search(r"errors? detected", line):
            return line.strip()[:400]
    return (msg.strip().splitlines() or ["?"])[-1][:400]


def inline_rsp(cmd, directory):
    """The command's --options-file FILE arguments replaced by FILE's words (relative to the entry's folder)."""
    words = shlex.split(cmd)
    res = []
    i = 0
    while i < len(words):
        wd = words[i]
        if wd in ("--options-file", "-optf") and i + 1 < len(words):
            res += shlex.split(open(os.path.join(directory, words[i + 1])).read())
            i += 2
            continue
        res.append(wd)
        i += 1
    return res


def overlay(src, out, tree, sub):
    """tree = a copy of src (hard links) with the files tfuse wrote under out (for src/sub) in place of theirs;
    returns their paths relative to src."""
    shutil.rmtree(tree, ignore_errors=True)
    subprocess.run(["cp", "-al", src, tree], check=True)
    written = []
    for d, _, fs in os.walk(out):
        for f in fs:
            rel = os.path.normpath(os.path.join(sub, os.path.relpath(os.path.join(d, f), out)))
            dst = os.path.join(tree, rel)
            if os.path.lexists(dst):
                os.remove(dst)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(os.path.join(d, f), dst)
            written.append(rel)
    return sorted(written)


def compile_entry(e, src, tree):
    """The database command of entry e with src's paths moved to tree and a temporary object: (ok, message)."""
    words = [x.replace(src + "/", tree + "/") for x in inline_rsp(e["command"], e["directory"])]
    with tempfile.TemporaryDirectory() as td:
        if "-o" in words:
            words[words.index("-o") + 1] = os.path.join(td, "x.o")
        rc, so, se, dt = run(words, NVCC_TIMEOUT, cwd=e["directory"])
    return rc == 0, (so + se)[-4000:], dt


def md_esc(s):
    return s.replace("|", "\\|").replace("`", "'").replace("\n", " ")


def classes(items, key, example):
    """[(class, count, first example)] by descending count."""
    by = {}
    for it in items:
        by.setdefault(key(it), []).append(it)
    return [(c, len(v), example(v[0])) for c, v in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0]))]


def cpu_table(res, w):
    rel = lambda f: os.path.relpath(f, w["src"])  # noqa: E731
    L = ["# tfuse on cuda-samples: -factor %s -mode %s" % (res["factor"], res.get("tfuse_mode", "block")), "",
         "tfuse `%s` (%s), %s: `tfuse %s`; wall %.1f s, CPU %.1f s, peak memory %.0f MiB (largest process), load "
         "average %s." % (res["tfuse"], res["tfuse_version"], res["mode"], res["command"], res["wall_s"],
                          res.get("cpu_s", 0),
             (res["peak_rss_kib"] or 0) / 1024.0, "/".join("%.2f" % x for x in res["loadavg"]))]
    bt = os.path.join(w["work"], "build-time.json")
    if os.path.exists(bt):
        b = json.load(open(bt))
        L.append("`%s` of the same tree: %.1f s wall, %.1f s CPU (rc %d; load average %s); tfuse / build: "
                 "wall %.3f, CPU %.3f." % (b["command"], b["wall_s"], b.get("cpu_s", 0), b["rc"], "/".join(
                     "%.2f" % x for x in b["loadavg_after"]), res["wall_s"] / b["wall_s"],
                     res.get("cpu_s", 0) / b["cpu_s"] if b.get("cpu_s") else 0))
    L.append("")
    if res.get("report_files") is not None:
        fs = res["report_files"]
        L += ["Files in the report: %d; %s." % (len(fs), ", ".join("%s %d" % (st, n) for st, n, _ in classes(
            fs, lambda f: f["status"], lambda f: f))), ""]
        failed = [f for f in fs if f["status"] == "failed"]
        if failed:
            L += ["| files failed | class | example | message |", "|---|---|---|---|"]
            for c, n, ex in classes(failed, lambda f: reason_class(f["reason"]), lambda f: f):
                L.append("| %d | %s | %s | `%s` |" % (n, md_esc(c), ex["file"], md_esc(ex["reason"][:300])))
            L.append("")
    if res["mode"] == "per file":
        fs = res["files"]
        failed = [r for r in fs if r["outcome"] in ("parse failed", "hang", "crash")]
        L += ["Files (CUDA files of the database): %d; with kernels %d; parsed %d; written %d (and %d headers); "
              "failed %d; refused as a whole %d." % (
                  len(fs), sum(r["outcome"] != "no kernel" for r in fs),
                  sum(r["outcome"] not in ("parse failed", "hang", "crash") for r in fs),
                  sum(r["file"] in {os.path.join(w["src"], p) for p in res["written"]} for r in fs),
                  sum(not p.endswith(".cu") for p in res["written"]), len(failed),
                  sum(r["outcome"] == "refused" for r in fs)), ""]
        if failed:
            L += ["| files failed | class | example | message |", "|---|---|---|---|"]
            for c, n, ex in classes(failed, lambda r: r["outcome"] + ": " + reason_class(first_error(
                    r.get("parse_stderr") or r["runs"][-1]["stderr"])), lambda r: r):
                L.append("| %d | %s | %s | `%s` |" % (n, md_esc(c), rel(ex["file"]), md_esc(first_error(
                    ex.get("parse_stderr") or ex["runs"][-1]["stderr"]))))
            L.append("")
    ks = res.get("kernels", [])
    if ks:
        co = [k for k in ks if k["decision"] == "coarsened"]
        L += ["Kernels (%s): %d; "
              "coarsened %d (%.1f%%); left unchanged %d." % (
                  "tfuse's report" if res["mode"] == "one command" else "the `__global__` functions defined in "
                  "the CUDA files and the local headers they include, by regex", len(ks), len(co), 100.0 * len(co) / len(ks),
                                                          len(ks) - len(co)), "",
              "| kernels left unchanged | reason | example | message |", "|---|---|---|---|"]
        for c, n, ex in classes([k for k in ks if k["decision"] != "coarsened"],
                                lambda k: (k["decision"] + ": " if k["decision"] != "left unchanged" else "") +
                                k["reason"], lambda k: k):
            L.append("| %d | %s | %s:%d %s | `%s` |" % (n, md_esc(c), ex["file"], ex["line"], ex["name"],
                                                       md_esc(ex["example"][:300])))
        L.append("")
    if res.get("stderr_tail") is not None:
        summ = [l for l in res["stderr_tail"].splitlines() if "warning:" not in l and "error:" not in l and
                "note:" not in l]
        L += ["tfuse's closing summary (its stderr without diagnostics):", "", "```"] + summ[-60:] + ["```", ""]
    comp = res["compiles"]
    bad = [c for c in comp if c["ok"] is False]
    L += ["Emitted files: %d written (%d .cu); compiled with their database commands: %d entries, %d OK, %d "
          "rejected." % (len(res["written"]), sum(p.endswith(".cu") for p in res["written"]), len(comp),
                         sum(c["ok"] is True for c in comp), len(bad))]
    for c in bad:
        L.append("- %s: `%s`" % (c["file"], md_esc(first_error(c["message"]))))
    return "\n".join(L) + "\n"


def cmd_cpu(a):
    w = work_paths(a.work)
    tfuse = os.path.abspath(a.tfuse)
    per = a.only or a.force_per_file or not tfuse_has(tfuse, "-all-kernels", "-keep-going")
    tag = a.tag or (("K%s" if a.mode == "block" else "T%s") % a.factor if a.factor != "auto" else "auto") + \
        ("-perfile" if per else "")
    out = os.path.join(w["work"], "out-" + tag)
    tree = os.path.join(w["work"], "tree-" + tag)
    if not a.reuse:
        shutil.rmtree(out, ignore_errors=True)
    db, cu, kernels = tree_stats(w["build"])
    kernels_of = {}  # CUDA file -> [(name, defining file, line)] of it and its local headers
    for f in cu:
        kernels_of[f] = [(k, h, ln) for h in local_includes(f) for k, ln in find_kernels(open(h, errors="replace")
                                                                                     .read())]
    if a.only or a.self_checking:
        cu = [f for f in cu if (re.search(a.only, f) if a.only else
                                any(f.startswith(os.path.join(w["src"], "Samples", d) + "/") for d in SELF_CHECKING))]
        kernels_of = {f: kernels_of[f] for f in cu}
    if a.reuse:  # the tfuse run of an earlier call; the overlay and the compiles again
        res = json.load(open(os.path.join(w["work"], "cpu-%s.json" % tag)))
    elif per:
        res = per_file(a, w, tfuse, a.factor, out, cu, kernels_of)
    else:
        res = one_command(a, w, tfuse, a.factor, out, cu if a.self_checking else None, tag)
    if not a.reuse:
        res.update({"tfuse": tfuse, "tfuse_version": run([tfuse, "-version"], 10)[1].strip(), "factor": a.factor, "tfuse_mode": a.mode,
                    "cpu_s": round(CPU_SECONDS, 1), "loadavg": os.getloadavg()})
    # tfuse writes each file at its path under the project's root: -root, else the inputs' common folder
    root = w["src"] if per else os.path.commonpath([os.path.dirname(f) for f in cu])
    written = overlay(w["src"], out, tree, os.path.relpath(root, w["src"])) if os.path.isdir(out) else []
    res["written"] = written
    # every emitted .cu, and every database entry that includes an emitted header, compiled in the tree
    emitted = {os.path.join(w["src"], p) for p in written}
    hdrs = {p for p in emitted if not p.endswith(".cu")}
    entries = [e for e in db if e["file"] in emitted or e["file"].endswith(".cu") and
               hdrs & set(local_includes(e["file"]))]
    with cf.ThreadPoolExecutor(a.j) as ex:
        comp = list(ex.map(lambda e: (e, compile_entry(e, w["src"], tree) if not a.no_nvcc else (None, "", 0)),
                           entries))
    res["compiles"] = [{"file": os.path.relpath(e["file"], w["src"]), "ok": ok, "nvcc_s": round(dt, 2),
                        "message": "" if ok else msg} for e, (ok, msg, dt) in comp]
    if res["mode"] == "per file":
        res["kernels"] = [{"name": k[0], "file": os.path.relpath(k[1], w["src"]), "line": k[2], "decision": d[0],
                           "reason": d[1], "example": d[2]}
                          for k, d in sorted(kernel_decisions(res, kernels_of).items(), key=lambda kv: kv[0][1:])]
    with open(os.path.join(w["work"], "cpu-%s.json" % tag), "w") as fh:
        json.dump(res, fh, indent=1)
    md = cpu_table(res, w)
    with open(os.path.join(w["work"], "cpu-%s.md" % tag), "w") as fh:
        fh.write(md)
    print(md)
    return 0


# ---- gpu-pack ----------------------------------------------------------------------
# Self-checking samples: no display, no input file, and their exit status or output tells the result.  Each is
# packed where the K = 4 tree changed one of its files (a kernel of it was coarsened).
SELF_CHECKING = [
    "0_Introduction/asyncAPI", "0_Introduction/fp16ScalarProduct", "0_Introduction/matrixMul",
    "0_Introduction/mergeSort", "0_Introduction/simpleAtomicIntrinsics", "0_Introduction/simpleAttributes",
    "0_Introduction/simpleAWBarrier", "0_Introduction/simpleCallback", "0_Introduction/simpleCubemapTexture",
    "0_Introduction/simpleHyperQ", "0_Introduction/simpleLayeredTexture", "0_Introduction/simpleMultiCopy",
    "0_Introduction/simpleMultiGPU", "0_Introduction/simpleOccupancy", "0_Introduction/simplePitchLinearTexture",
    "0_Introduction/simpleStreams", "0_Introduction/simpleTemplates", "0_Introduction/simpleVoteIntrinsics",
    "0_Introduction/simpleZeroCopy", "0_Introduction/systemWideAtomics", "0_Introduction/template",
    "0_Introduction/vectorAdd", "2_Concepts_and_Techniques/convolutionSeparable",
    "2_Concepts_and_Techniques/convolutionTexture", "2_Concepts_and_Techniques/histogram",
    "2_Concepts_and_Techniques/inlinePTX", "2_Concepts_and_Techniques/interval",
    "2_Concepts_and_Techniques/radixSortThrust", "2_Concepts_and_Techniques/reduction",
    "2_Concepts_and_Techniques/scalarProd", "2_Concepts_and_Techniques/scan", "2_Concepts_and_Techniques/shfl_scan",
    "2_Concepts_and_Techniques/sortingNetworks", "2_Concepts_and_Techniques/streamOrderedAllocation",
    "2_Concepts_and_Techniques/threadFenceReduction", "3_CUDA_Features/StreamPriorities",
    "3_CUDA_Features/cdpSimplePrint", "3_CUDA_Features/cdpSimpleQuicksort", "3_CUDA_Features/cudaTensorCoreGemm",
    "3_CUDA_Features/graphMemoryNodes", "3_CUDA_Features/immaTensorCoreGemm", "5_Domain_Specific/BlackScholes",
    "5_Domain_Specific/binomialOptions", "5_Domain_Specific/convolutionFFT2D", "5_Domain_Specific/fastWalshTransform",
    "5_Domain_Specific/quasirandomGenerator", "5_Domain_Specific/SobolQRNG", "5_Domain_Specific/MonteCarloMultiGPU",
    "6_Performance/LargeKernelParameter", "6_Performance/alignedTypes", "6_Performance/transpose",
    "6_Performance/UnifiedMemoryPerf",
]
PASS_WORDS_RE = re.compile(r"Test passed|Test PASSED|Result = PASS|PASSED|Passed")
FAIL_RE = r"FAILED|Test failed|Result = FAIL|FAIL\b"
PACK_SKIP = ("doc", "data", ".vscode")


def pack_words(words, src, cuda):
    """A database command's words for the pack: paths under the tree as {root}, the CUDA installation as
    {cuda}, the compilers by name, sm_90 in place of CMake's --generate-code, the object as {obj}."""
    res = []
    for i, wd in enumerate(words):
        if i == 0:
            wd = os.path.basename(wd)
        elif wd.startswith("--generate-code=") or wd.startswith("-gencode"):
            wd = "-arch=sm_90"
        elif i > 0 and words[i - 1] == "-o":
            wd = "{obj}"
        wd = wd.replace(src + "/", "{root}/").replace(cuda + "/", "{cuda}/")
        res.append(wd)
    return res


def link_libs(build, sample_dir):
    """The -l words of the sample's target (CMake's linkLibs.rsp), shared libraries by name."""
    libs = []
    for rsp in sorted(glob.glob(os.path.join(build, sample_dir, "CMakeFiles", "*.dir", "linkLibs.rsp"))):
        for wd in shlex.split(open(rsp).read()):
            m = re.match(r".*/lib([^/]+)\.(?:so|a)$", wd)
            wd = "-l" + m.group(1) if m else wd
            if wd.startswith("-l") and wd not in libs:
                libs.append(wd)
    return libs


def pass_criteria(text):
    """How a self-checking sample's run is judged, from its sources' text: exit status 0, no failure words, and
    its own pass words where it prints some."""
    crit = {"exit_code": 0, "fail_regex": FAIL_RE}
    pw = PASS_WORDS_RE.search(text)
    if pw:
        crit["stdout_regex"] = re.escape(pw.group(0))
    return crit


def finish_pack(dst, meta, command, what):
    """A pack's common part: the tuning runtime's sources, these scripts, pack.json (meta) and run.sh, which
    runs `cuda-samples.py COMMAND` (said in its comment: what); returns the pack's size in MiB."""
    for f in TUNE_FILES:
        os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, f), os.path.join(dst, f))
    for f in (__file__, os.path.join(HERE, "corpus_gpu.py"), os.path.join(ROOT, "test", "fuzz", "gpu_run.py")):
        shutil.copy(f, dst)
    with open(os.path.join(dst, "pack.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    with open(os.path.join(dst, "run.sh"), "w") as fh:
        fh.write("#!/bin/bash\n# %s: bash run.sh [-j N] [--timeout S]\nhere=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n"
                 "exec python3 \"$here/cuda-samples.py\" %s --pack \"$here\" \"$@\"\n" % (what, command))
    os.chmod(os.path.join(dst, "run.sh"), 0o755)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(dst) for f in fs) / 2**20


def cmd_gpu_pack(a):
    w = work_paths(a.work)
    dst = os.path.abspath(a.to)
    db = database(w["build"])
    cuda = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")))
    cuda_alias = "/usr/local/cuda"
    args = json.load(open(os.path.join(w["src"], "test_args.json")))
    forms, cpu = {"original": w["src"]}, {}
    for tag, given in (("K4", a.k4), ("auto", a.auto)):  # the run named, else the one command's, else per file
        for run_tag in ([given] if given else [tag, tag + "-perfile"]):
            if os.path.isdir(os.path.join(w["work"], "tree-" + run_tag)):
                forms[tag] = os.path.join(w["work"], "tree-" + run_tag)
                cpu[tag] = json.load(open(os.path.join(w["work"], "cpu-%s.json" % run_tag)))
                print("gpu-pack: the %s form from %s" % (tag, forms[tag]))
                break
    written = {tag: set(c["written"]) for tag, c in cpu.items()}
    rejected = {tag: {os.path.dirname(x["file"]) for x in c["compiles"] if x["ok"] is False} for tag, c in cpu.items()}
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    samples = []
    for sd in SELF_CHECKING:
        rel = os.path.join("Samples", sd)
        entries = [e for e in db if os.path.dirname(e["file"]) == os.path.join(w["src"], rel)]
        changed = {tag: sorted(f for f in written[tag] if f.startswith(rel + "/")) for tag in written}
        for tag in list(changed):
            if rel in rejected[tag]:
                print("gpu-pack: %s: the %s form left out: nvcc rejected a file tfuse wrote" % (sd, tag))
                del changed[tag]
        if not entries:
            print("gpu-pack: %s left out: not in the database" % sd)
            continue
        if not changed.get("K4"):
            print("gpu-pack: %s left out: no file of it changed at K = 4" % sd)
            continue
        objs = []
        rdc = False
        for e in entries:
            words = inline_rsp(e["command"], e["directory"])
            rdc = rdc or "-rdc=true" in words
            objs.append({"src": os.path.relpath(e["file"], w["src"]),
                         "cmd": pack_words(words, w["src"], cuda_alias if words[0].startswith(cuda_alias) else cuda)})
        name = os.path.basename(sd)
        text = "".join(open(e["file"], errors="replace").read() for e in entries)
        samples.append({"name": name, "dir": rel, "objects": objs, "rdc": rdc, "libs": link_libs(w["build"], rel),
                        "run": args.get(name, {}).get("args", []), "pass": pass_criteria(text), "changed": changed,
                        "forms": [f for f in forms if f == "original" or changed.get(f)]})
        for tag in samples[-1]["forms"]:
            shutil.copytree(os.path.join(forms[tag], rel), os.path.join(dst, tag, rel),
                            ignore=shutil.ignore_patterns(*PACK_SKIP))
    for tag in forms:  # the shared headers, without their images, data and libraries
        os.makedirs(os.path.join(dst, tag, "Common"), exist_ok=True)
        for f in glob.glob(os.path.join(forms[tag], "Common", "*")):
            if os.path.isfile(f):
                shutil.copy(f, os.path.join(dst, tag, "Common"))
    size = finish_pack(dst, {"samples": samples, "forms": list(forms)}, "gpu-run",
                       "Builds and runs the self-checking cuda-samples of this pack in each form")
    print("gpu-pack: %s: %d samples (%s), forms %s, %.1f MiB" % (dst, len(samples), ", ".join(
        s["name"] for s in samples), ", ".join(forms), size))
    return 0


# ---- gpu-run (on the GPU machine, from the pack) ------------------------------------
def build_sample(s, tag, pack, work, nvcc, tune_obj):
    """Compiles the sample's files of form tag with their database commands and links them with nvcc:
    (binary or None, message, seconds)."""
    cuda = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    bdir = os.path.join(work, tag, s["name"])
    shutil.rmtree(bdir, ignore_errors=True)
    os.makedirs(bdir)
    t0 = time.time()
    objs = []
    for i, o in enumerate(s["objects"]):
        obj = os.path.join(bdir, "%d.o" % i)
        cmd = [c.replace("{root}", os.path.join(pack, tag)).replace("{cuda}", cuda).replace("{obj}", obj)
               for c in o["cmd"]]
        if cmd[0] == "nvcc":
            cmd[0] = nvcc
        rc, so, se, _ = run(cmd, NVCC_TIMEOUT, cwd=bdir)
        if rc != 0:
            return None, "%s: %s" % (o["src"], (so + se)[-1500:]), time.time() - t0
        objs.append(obj)
    exe = os.path.join(bdir, s["name"])
    cmd = [nvcc, "-arch=sm_90"] + (["-rdc=true"] if s["rdc"] else []) + objs + \
        ([tune_obj, "-lcuda"] if tag == "auto" else []) + ["-o", exe] + s["libs"]
    rc, so, se, _ = run(cmd, NVCC_TIMEOUT, cwd=bdir)
    if rc != 0:
        return None, "link: " + (so + se)[-1500:], time.time() - t0
    return exe, "", time.time() - t0


def cmd_gpu_run(a):
    from corpus_gpu import outcome, build_tune_obj, without_tune_report, parse_tune  # noqa: E402
    from gpu_run import find_nvcc  # noqa: E402
    pack = os.path.abspath(a.pack)
    meta = json.load(open(os.path.join(pack, "pack.json")))
    nvcc = find_nvcc(a.nvcc)
    work = os.path.join(pack, "work")
    os.makedirs(work, exist_ok=True)
    tune_obj = os.path.join(work, "tune.o")
    tune_ok, tune_msg = build_tune_obj(nvcc, pack, tune_obj) if "auto" in meta["forms"] else (False, "")
    if a.only:
        meta["samples"] = [s for s in meta["samples"] if s["name"] in a.only.split(",")]
    jobs = [(s, tag) for s in meta["samples"] for tag in s["forms"]]
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode().strip()
    except OSError:
        gpu = "?"

    def save(results):
        for d in (pack, os.environ.get("OUT")):
            if d:
                with open(os.path.join(d, "results.json"), "w") as fh:
                    json.dump({"gpu": gpu, "nvcc": nvcc, "results": results}, fh, indent=1)

    def build(job):
        s, tag = job
        if tag == "auto" and not tune_ok:
            return job, (None, "the tuning runtime did not compile: " + tune_msg, 0)
        return job, build_sample(s, tag, pack, work, nvcc, tune_obj)

    with cf.ThreadPoolExecutor(a.j) as ex:
        built = dict(((s["name"], tag), r) for (s, tag), r in ex.map(build, jobs))
    results = {}
    for s, tag in jobs:  # one run at a time: the samples time themselves
        exe, msg, bt = built[(s["name"], tag)]
        r = {"build_s": round(bt, 1)}
        if exe is None:
            r.update({"outcome": "build-failed", "detail": msg})
        else:
            env = None
            if tag == "auto":  # tune, then read every decision from the wisdom file
                env = dict(os.environ, TFUSE_WISDOM=os.path.join(work, s["name"] + ".wisdom"), TFUSE_TUNE_REPORT="1")
                if os.path.exists(env["TFUSE_WISDOM"]):
                    os.remove(env["TFUSE_WISDOM"])
            r["runs"] = []
            for phase in (("tune", "wisdom") if tag == "auto" else ("run",)):
                rc, so, se, dt = run([exe] + s["run"], a.timeout, cwd=os.path.join(pack, tag, s["dir"]), env=env)
                if tag == "auto":
                    tune = parse_tune(se)
                    se = without_tune_report(se)
                oc = "waived" if rc == 2 else outcome(s, rc, so, se)
                rr = {"phase": phase, "rc": rc, "outcome": oc, "run_s": round(dt, 3)}
                if tag == "auto":
                    rr["tuned"] = len(tune["tuned"])
                    rr["from_wisdom"] = tune["from_wisdom"]
                r["runs"].append(rr)
                r["outcome"] = oc
                if oc != "pass":
                    r["detail"] = ("rc=%s " % rc) + (so[-600:] + se[-400:]).strip()
                    break
        results["%s/%s" % (s["name"], tag)] = r
        print("%-28s %-8s %s" % (s["name"], tag, r["outcome"]), flush=True)
        save(results)  # after every run: a call cut short keeps what it did
    L = ["", "GPU: %s" % gpu, "", "| sample | changed files (K4) | original | K4 | auto | auto: keys tuned, "
         "then read from wisdom |", "|---|---|---|---|---|---|"]
    for s in meta["samples"]:
        o = {tag: results.get("%s/%s" % (s["name"], tag)) for tag in ("original", "K4", "auto")}
        au = o["auto"]
        tw = "-"
        if au and au.get("runs"):
            tw = "/".join(str(x.get(k, "-")) for x, k in zip(au["runs"], ("tuned", "from_wisdom")))
        L.append("| %s | %d | %s | %s | %s | %s |" % (s["name"], len(s["changed"].get("K4", [])), *(
            o[t]["outcome"] if o[t] else "-" for t in ("original", "K4", "auto")), tw))
    for form in ("K4", "auto"):
        both = [s for s in meta["samples"] if (results.get(s["name"] + "/original") or {}).get("outcome") == "pass"
                and form in s["forms"]]
        ok = [s for s in both if results[s["name"] + "/" + form]["outcome"] == "pass"]
        L.append("\n%s: %d of %d samples whose original passed also pass coarsened%s" % (
            form, len(ok), len(both), "; not: " + ", ".join(s["name"] for s in both if s not in ok)
            if len(ok) < len(both) else ""))
    print("\n".join(L))
    return 0


# ---- tree-pack / tree-run: the whole tree in each form, with its own CMake build -----------
def tree_tar(path, src, files, empty_data):
    """An xz tarball of the files (relative to src); with empty_data, each file under a `data` folder is stored
    empty (the build copies it; the self-checking samples read none)."""
    import tarfile
    with tarfile.open(path, "w:xz", preset=6) as t:
        for rel in files:
            full = os.path.join(src, rel)
            ti = t.gettarinfo(full, rel)
            if empty_data and "/data/" in "/" + rel and ti.isfile():
                ti.size = 0
                t.addfile(ti)
            elif ti.isfile():
                with open(full, "rb") as fh:
                    t.addfile(ti, fh)
            else:
                t.addfile(ti)


def cmd_tree_pack(a):
    """The tree-run pack: the original tree (without docs, data files empty), each form's written files, the
    self-checking samples and how to judge them, the tuning runtime and run.sh."""
    w = work_paths(a.work)
    dst = os.path.abspath(a.to)
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    files = []
    for d, dirs, fs in os.walk(w["src"]):
        rel = os.path.relpath(d, w["src"])
        dirs[:] = [x for x in dirs if not (x in ("doc", ".vscode", ".git") or rel == "." and x == "bin")]
        files += [os.path.normpath(os.path.join(rel, f)) for f in fs]
    tree_tar(os.path.join(dst, "src.tar.xz"), w["src"], sorted(files), True)
    forms = {}
    for spec in a.form:
        name, tag = spec.split("=", 1) if "=" in spec else (spec, spec)
        cpu = json.load(open(os.path.join(w["work"], "cpu-%s.json" % tag)))
        tree_tar(os.path.join(dst, "form-%s.tar.xz" % name), os.path.join(w["work"], "tree-" + tag),
                 cpu["written"], False)
        forms[name] = {"tag": tag, "written": cpu["written"], "command": cpu.get("command", ""),
                       "tfuse_version": cpu.get("tfuse_version", ""), "factor": cpu.get("factor"),
                       "mode": cpu.get("tfuse_mode", "block")}
    args = json.load(open(os.path.join(w["src"], "test_args.json")))
    samples = []
    for sd in SELF_CHECKING:
        rel = os.path.join("Samples", sd)
        name = os.path.basename(sd)
        text = "".join(open(os.path.join(w["src"], rel, f), errors="replace").read()
                       for f in sorted(os.listdir(os.path.join(w["src"], rel))) if f.endswith((".cu", ".cpp")))
        samples.append({"name": name, "dir": rel, "run": args.get(name, {}).get("args", []), "pass": pass_criteria(text),
                        "changed": {f: [x for x in forms[f]["written"] if x.startswith(rel + "/")] for f in forms}})
    size = finish_pack(dst, {"samples": samples, "forms": forms}, "tree-run",
                       "Builds the whole cuda-samples tree with its own CMake (Ninja) build in each form and runs "
                       "the self-checking samples")
    print("tree-pack: %s: forms %s, %d self-checking samples, %.1f MiB" % (dst, ", ".join(forms), len(samples),
                                                                          size))
    return 0


def ninja_failures(text):
    """The outputs ninja reports FAILED in a build log."""
    return sorted({m.group(1).strip() for m in re.finditer(r"^FAILED: (.*)$", text, re.M)})


def cmd_tree_run(a):
    """On the GPU machine: the original tree configured once with CMake (Ninja, sm_90) and built whole; then each
    form's files laid over it (the previous form's taken back) and built again, so that only what changed is
    rebuilt; the self-checking samples' binaries of each build are kept, then run (--run-j at a time on each GPU;
    an auto build twice, tune, then wisdom).
    A form builds where ninja's failures are the original's (a target whose link needs a missing library fails
    in every form)."""
    import tarfile
    from corpus_gpu import outcome, build_tune_obj, without_tune_report, parse_tune  # noqa: E402
    from gpu_run import find_nvcc  # noqa: E402
    pack = os.path.abspath(a.pack)
    meta = json.load(open(os.path.join(pack, "pack.json")))
    nvcc = find_nvcc(a.nvcc)
    work = os.path.join(pack, "work")
    shutil.rmtree(work, ignore_errors=True)
    src, build = os.path.join(work, "src"), os.path.join(work, "build")
    os.makedirs(src)
    with tarfile.open(os.path.join(pack, "src.tar.xz")) as t:
        t.extractall(src)
    pristine = os.path.join(work, "pristine")
    tune_obj = os.path.join(work, "tune.o")
    tune_ok, tune_msg = build_tune_obj(nvcc, pack, tune_obj) if "auto" in meta["forms"] else (False, "")
    tune_lib = os.path.join(work, "libtfuse_tune_pack.a")
    if tune_ok:
        subprocess.run(["ar", "rcs", tune_lib, tune_obj], check=True)
    libs = "%s -lcuda" % tune_lib if tune_ok else ""
    cuda_bin = os.path.dirname(os.path.realpath(nvcc))
    env = dict(os.environ, PATH=cuda_bin + os.pathsep + os.environ.get("PATH", ""), CUDACXX=nvcc)
    t0 = time.time()
    rc, so, se, _ = run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                         "-DCMAKE_CUDA_ARCHITECTURES=90", "-DCMAKE_CUDA_COMPILER=" + nvcc,
                         "-DCMAKE_CUDA_STANDARD_LIBRARIES=" + libs, "-DCMAKE_CXX_STANDARD_LIBRARIES=" + libs],
                        900, cwd=work, env=env)
    print("tree-run: configure rc=%d (%.0f s)" % (rc, time.time() - t0), flush=True)
    if rc != 0:
        print((so + se)[-3000:])
        return 1
    try:
        gpu_names = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().splitlines()
    except OSError:
        gpu_names = []
    gpu = gpu_names[0].strip() if gpu_names else "?"
    results = {"gpu": gpu, "nvcc": nvcc, "builds": {}, "runs": {}}

    def save():
        for d in (pack, os.environ.get("OUT")):
            if d:
                with lock, open(os.path.join(d, "tree-results.json.tmp"), "w") as fh:
                    json.dump(results, fh, indent=1)
                os.replace(os.path.join(d, "tree-results.json.tmp"), os.path.join(d, "tree-results.json"))

    def keep_binaries(form):
        """This form's self-checking binaries, copied before the next form's build replaces them."""
        for s in meta["samples"]:
            if form != "original" and not s["changed"].get(form):
                continue
            exe = os.path.join(build, s["dir"], s["name"])
            failed = [f for f in results["builds"][form]["failed"] if (s["dir"] + "/") in f]
            if not failed and os.path.exists(exe):  # a binary left from an earlier form is not this form's
                os.makedirs(os.path.join(work, "bin-" + form), exist_ok=True)
                shutil.copy2(exe, os.path.join(work, "bin-" + form, s["name"]))

    ngpu = max(1, len([x for x in gpu_names if x]))

    def keep_tune_output(name, phase, stderr, wisdom):
        """An auto run's tune report (its stderr) and wisdom file, kept under tune/ in the pack and in $OUT: the
        inputs of tfuse-report and scripts/tfuse-tune."""
        for d in (pack, os.environ.get("OUT")):
            if not d:
                continue
            os.makedirs(os.path.join(d, "tune"), exist_ok=True)
            with open(os.path.join(d, "tune", "%s.%s.log" % (name, phase)), "w") as fh:
                fh.write(stderr)
            if os.path.exists(wisdom):
                shutil.copy(wisdom, os.path.join(d, "tune", name + ".wisdom"))

    import threading
    lock = threading.RLock()  # results, between the runs and the builds

    def run_one(job):
        s, form, r = run_sample(job)
        with lock:  # kept as it comes: a call cut short keeps what ran
            results["runs"]["%s/%s" % (s["name"], form)] = r
            print("%-28s %-8s %s" % (s["name"], form, r["outcome"]), flush=True)
            save()
        return s, form, r

    def run_sample(job):
        i, (s, form) = job
        exe = os.path.join(work, "bin-" + form, s["name"])
        if not os.path.exists(exe):
            return s, form, {"outcome": "build-failed"}
        renv = dict(os.environ, CUDA_VISIBLE_DEVICES=str(i % ngpu))
        if form == "auto":
            renv.update(TFUSE_WISDOM=os.path.join(work, s["name"] + ".wisdom"), TFUSE_TUNE_REPORT="1")
        r = {"runs": []}
        for phase in (("tune", "wisdom") if form == "auto" else ("run",)):
            rc, so, se, dt = run([exe] + s["run"], a.timeout, cwd=os.path.join(src, s["dir"]), env=renv)
            tuned = parse_tune(se) if form == "auto" else None
            if form == "auto":
                keep_tune_output(s["name"], phase, se, renv["TFUSE_WISDOM"])
                se = without_tune_report(se)
            oc = "waived" if rc == 2 else outcome(s, rc, so, se)
            rr = {"phase": phase, "rc": rc, "outcome": oc, "run_s": round(dt, 3)}
            if tuned:
                rr["tuned"], rr["from_wisdom"] = len(tuned["tuned"]), tuned["from_wisdom"]
            r["runs"].append(rr)
            r["outcome"] = oc
            if oc != "pass":
                r["detail"] = ("rc=%s " % rc) + (so[-600:] + se[-400:]).strip()
                break
        return s, form, r

    pool = cf.ThreadPoolExecutor(a.run_j * ngpu)
    pending = []
    previous = []
    for form in ["original"] + list(meta["forms"]):
        if form == "auto" and not tune_ok:
            results["builds"][form] = {"error": "the tuning runtime did not compile: " + tune_msg}
            continue
        for rel in previous:  # the last form's files back to the original's, newer than its objects
            shutil.copy(os.path.join(pristine, rel), os.path.join(src, rel))
            os.utime(os.path.join(src, rel))
        previous = []
        if form != "original":
            with tarfile.open(os.path.join(pack, "form-%s.tar.xz" % form)) as t:
                names = [m.name for m in t.getmembers() if m.isfile()]
                for rel in names:
                    if not os.path.exists(os.path.join(pristine, rel)):
                        os.makedirs(os.path.dirname(os.path.join(pristine, rel)), exist_ok=True)
                        shutil.copy2(os.path.join(src, rel), os.path.join(pristine, rel))
                t.extractall(src)
                for rel in names:  # newer than every object, so ninja rebuilds what includes them
                    os.utime(os.path.join(src, rel))
            previous = names
        t0 = time.time()
        rc, so, se, _ = run(["ninja", "-C", build, "-k", "0", "-j", str(a.j)], 3000, cwd=work, env=env)
        log = so + se
        with open(os.path.join(work, "build-%s.log" % form), "w") as fh:
            fh.write(log)
        fails = ninja_failures(log)
        b = {"rc": rc, "wall_s": round(time.time() - t0, 1), "failed": fails,
             "steps": len(re.findall(r"^\[\d+/\d+\]", log, re.M))}
        if form != "original":
            orig = set(results["builds"]["original"]["failed"])
            b["new_failures"] = [f for f in fails if f not in orig]
            b["new_failure_logs"] = [log[m.start():m.start() + 1500] for m in re.finditer(r"^FAILED: ", log, re.M)
                                     if log[m.start() + 8:].split("\n", 1)[0].strip() not in orig][:5]
            b["files"] = len(names)
        with lock:
            results["builds"][form] = b
        print("tree-run: %s: ninja rc=%d, %d steps, %d failed%s (%.0f s)" % (
            form, rc, b["steps"], len(fails), ", new: " + ", ".join(b["new_failures"]) if b.get("new_failures")
            else "", b["wall_s"]), flush=True)
        save()
        keep_binaries(form)
        # this form's samples run while the next form builds
        pending += [pool.submit(run_one, (len(pending) + i, (s, form))) for i, s in enumerate(
            x for x in meta["samples"] if form == "original" or x["changed"].get(form))]
    for fut in pending:
        fut.result()
    pool.shutdown()
    L = ["", "GPU: %s" % gpu, ""]
    forms = ["original"] + list(meta["forms"])
    L.append("| sample | " + " | ".join(forms) + " |")
    L.append("|---|" + "---|" * len(forms))
    for s in meta["samples"]:
        L.append("| %s | %s |" % (s["name"], " | ".join(
            (results["runs"].get("%s/%s" % (s["name"], f)) or {}).get("outcome", "-") for f in forms)))
    for form in meta["forms"]:
        both = [s for s in meta["samples"] if (results["runs"].get(s["name"] + "/original") or {}).get("outcome")
                == "pass" and (s["name"] + "/" + form) in results["runs"]]
        ok = [s for s in both if results["runs"][s["name"] + "/" + form]["outcome"] == "pass"]
        b = results["builds"].get(form, {})
        L.append("%s: tree build %s; %d of %d changed samples whose original passed also pass%s" % (
            form, "as the original's" if not b.get("new_failures") and "error" not in b else "NEW FAILURES",
            len(ok), len(both), "; not: " + ", ".join(s["name"] for s in both if s not in ok)
            if len(ok) < len(both) else ""))
    print("\n".join(L))
    return 0


# ---- speed -------------------------------------------------------------------------
def cpu_run(cmd, cwd):
    """Runs cmd to the end: (rc, wall s, CPU s of it and its children)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.time() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p.returncode, dt, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def cmd_speed(a):
    """tfuse against nvcc, file by file: for N CUDA files that the K = 4 run wrote, the per-file tfuse command
    (every kernel of the file) and the file's own database command, in turn, best of R rounds each; wall and
    CPU time (CPU time holds still on a loaded machine)."""
    w = work_paths(a.work)
    tfuse = os.path.abspath(a.tfuse)
    res = json.load(open(os.path.join(w["work"], "cpu-%s.json" % a.tag)))
    db = {e["file"]: e for e in database(w["build"])}
    written = {os.path.join(w["src"], p) for p in ([f["file"] for f in res["report_files"] if f["status"] ==
                                                     "written"] if res.get("report_files") else res["written"])}
    kernels_of = {r["file"]: r["kernels"] for r in res.get("files", [])} if res.get("files") else {
        f: sorted({k for k, _ in find_kernels(open(f, errors="replace").read())}) for f in written if f in db}
    files = sorted(f for f in written if f in db and kernels_of.get(f))[:a.n]
    rows = []
    with tempfile.TemporaryDirectory() as td:
        for f in files:
            tcmd = [tfuse, "-factor", "4", "-mode", "block", "-skip-unsafe", "-p", "build", "-root", "src",
                    "-out-dir", td] + [x for k in kernels_of[f] for x in ("-kernel", k)] + [f]
            words = inline_rsp(db[f]["command"], db[f]["directory"])
            words[words.index("-o") + 1] = os.path.join(td, "x.o")
            best = {"tfuse": None, "nvcc": None}
            for _ in range(a.rounds):
                for tool, cmd, cwd in (("tfuse", tcmd, w["work"]), ("nvcc", words, db[f]["directory"])):
                    rc, wall, cpu = cpu_run(cmd, cwd)
                    if best[tool] is None or cpu < best[tool][2]:
                        best[tool] = (rc, wall, cpu)
            rows.append((os.path.relpath(f, w["src"]), best["tfuse"], best["nvcc"]))
    L = ["| file | tfuse wall s | tfuse CPU s | nvcc wall s | nvcc CPU s | tfuse/nvcc CPU |", "|---|---|---|---|---|---|"]
    for f, t, n in rows:
        L.append("| %s | %.2f | %.2f | %.2f | %.2f | %.3f |" % (f, t[1], t[2], n[1], n[2], t[2] / n[2]))
    tt, nn = sum(r[1][2] for r in rows), sum(r[2][2] for r in rows)
    L.append("\n%d files, best of %d rounds: tfuse %.1f s CPU, nvcc %.1f s CPU: %.3f of nvcc's time (wall: %.3f); "
             "load average %s." % (len(rows), a.rounds, tt, nn, tt / nn, sum(r[1][1] for r in rows) /
                                   sum(r[2][1] for r in rows), "/".join("%.2f" % x for x in os.getloadavg())))
    print("\n".join(L))
    with open(os.path.join(w["work"], "speed.md"), "w") as fh:
        fh.write("\n".join(L) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("layout")
    s.add_argument("--mirror", required=True, help="bare git directory of NVIDIA/cuda-samples")
    s.add_argument("--commit", default=COMMIT)
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s = sub.add_parser("build-time")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s.add_argument("-j", type=int, default=2)
    s.add_argument("--keep", action="store_true", help="keep the build folder")
    s = sub.add_parser("cpu")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s.add_argument("--tfuse", default=os.path.join(ROOT, "build", "bin", "tfuse"))
    s.add_argument("--factor", default="4", help="a factor, or auto")
    s.add_argument("--mode", default="block", choices=("block", "thread"))
    s.add_argument("-j", type=int, default=2, help="tfuse runs (per-file fallback) and compiles at a time")
    s.add_argument("--timeout", type=float, default=60, help="seconds per tfuse run (per-file fallback)")
    s.add_argument("--self-checking", action="store_true", help="only the CUDA files of the self-checking samples "
                   "(the GPU pack's): the one command names them")
    s.add_argument("--reuse", action="store_true", help="keep the tfuse run of an earlier call with this tag "
                   "(out-TAG, cpu-TAG.json): lay it over the tree and compile again")
    s.add_argument("--tag", help="names the run's folders and results (default K4 or auto, -perfile added for "
                   "one run per file): out-TAG, tree-TAG, cpu-TAG.json")
    s.add_argument("--jobs", type=int, default=1, help="the one command's -j (default 1: none given)")
    s.add_argument("--force-per-file", action="store_true", help="one run per file even where the tfuse has "
                   "-all-kernels and -keep-going")
    s.add_argument("--no-nvcc", action="store_true")
    s.add_argument("--only", help="a regular expression: only the CUDA files whose paths match it (one run per "
                   "file)")
    s = sub.add_parser("speed")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s.add_argument("--tfuse", default=os.path.join(ROOT, "build", "bin", "tfuse"))
    s.add_argument("-n", type=int, default=10, help="files")
    s.add_argument("--rounds", type=int, default=2)
    s.add_argument("--tag", default="K4", help="the files of which cpu run (cpu-TAG.json)")
    s = sub.add_parser("gpu-pack")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s.add_argument("--to", default=os.path.join(ROOT, "corpus-work", "cuda-samples-pack"))
    s.add_argument("--k4", help="the cpu run (its --tag) of the K4 form (default K4, else K4-perfile)")
    s.add_argument("--auto", help="the cpu run (its --tag) of the auto form (default auto, else auto-perfile)")
    s = sub.add_parser("tree-pack")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s.add_argument("--to", required=True)
    s.add_argument("--form", action="append", required=True, help="NAME=TAG: the cpu run TAG as form NAME "
                   "(repeat; the name auto is built with the tuning runtime and run twice)")
    s = sub.add_parser("tree-run")
    s.add_argument("--pack", default=HERE)
    s.add_argument("-j", type=int, default=os.cpu_count() or 4, help="ninja's jobs")
    s.add_argument("--run-j", type=int, default=2, help="samples run at a time on each GPU")
    s.add_argument("--timeout", type=float, default=120, help="seconds per run")
    s.add_argument("--nvcc")
    s = sub.add_parser("gpu-run")
    s.add_argument("--pack", default=HERE)
    s.add_argument("-j", type=int, default=os.cpu_count() or 4, help="builds at a time")
    s.add_argument("--timeout", type=float, default=120, help="seconds per run")
    s.add_argument("--only", help="comma-separated samples: only these")
    s.add_argument("--nvcc")
    a = ap.parse_args()
    return {"layout": cmd_layout, "build-time": cmd_build_time, "cpu": cmd_cpu, "gpu-pack": cmd_gpu_pack, "speed": cmd_speed,
            "gpu-run": cmd_gpu_run, "tree-pack": cmd_tree_pack, "tree-run": cmd_tree_run}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
