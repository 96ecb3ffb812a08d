#!/usr/bin/env python3
"""The construct census: which rows of tfuse's construct table
(passes/constructs.def) the kernels tfuse coarsened reach, over a corpus.

    python3 scripts/census.py REPORT.json|DIR... [--def passes/constructs.def]

Reads every -report-json file given (a folder: every *.json below it that
has "kernels"), counts for each construct the coarsened kernels that reach
it, and prints one line per row: count, rule, name, and what the model says.
A name with no row in the table (which tfuse can only report if the table
and the binary disagree) is printed as `NO ROW` and makes the exit status 1,
as does a reached row whose rule is REFUSE.  Rows never reached are listed
last: forms the corpus does not exercise.
"""
import argparse
import json
import os
import re
import sys


def table_rows(path):
    rows = {}
    pat = re.compile(r'^C\((\w+),\s*(\w+),\s*(\w+),\s*"([^"]*)",\s*"([^"]*)"\)')
    for line in open(path, encoding="utf-8"):
        m = pat.match(line.strip())
        if m:
            rows[m.group(4)] = (m.group(3), m.group(5))
    rows["GNU atomic builtin"] = ("REFUSE", "written in parse.c")
    return rows


def reports(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith(".json"):
                        yield os.path.join(root, f)
        else:
            yield p


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--def", dest="table", default=os.path.join(here, "..", "passes", "constructs.def"))
    a = ap.parse_args()
    rows = table_rows(a.table)
    count, kernels, nreports = {}, 0, 0
    for path in reports(a.reports):
        try:
            data = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or "kernels" not in data:
            continue
        nreports += 1
        for k in data["kernels"]:
            if k.get("decision") != "coarsened":
                continue
            kernels += 1
            for c in set(k.get("constructs", [])):
                count[c] = count.get(c, 0) + 1
    bad = 0
    print(f"census: {kernels} coarsened kernels in {nreports} reports")
    for name, n in sorted(count.items(), key=lambda x: (-x[1], x[0])):
        rule, model = rows.get(name, ("NO ROW", ""))
        if rule in ("NO ROW", "REFUSE"):
            bad += 1
        print(f"{n:8d}  {rule:6s}  {name}: {model}")
    unseen = [n for n in rows if n not in count]
    if unseen:
        print("rows no coarsened kernel reached: " + ", ".join(unseen))
    if bad:
        print(f"census: {bad} constructs reached with no row or a REFUSE row")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
