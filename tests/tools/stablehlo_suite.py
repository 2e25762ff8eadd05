#!/usr/bin/env python3
"""Runs StableHLO's own executable tests through `autopart run` and counts
passing check ops per file (ratchet: tests/stablehlo-suites.txt).

  stablehlo_suite.py --autopart build/bin/autopart --root ../shared/peer/stablehlo \
      --ratchet tests/stablehlo-suites.txt          # fail when a file regresses
  stablehlo_suite.py ... --report                   # per-folder totals, failures
  stablehlo_suite.py ... --write-ratchet FILE       # record today's counts

A file's total is its number of check ops (check.* and custom_call @check.*);
its passed count is what `autopart run` reports (`checks: P/T passed`).
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

FOLDERS = ["stablehlo/tests/interpret", "stablehlo/tests/interpret/chlo", "stablehlo/testdata"]


def run_file(autopart, path):
    try:
        p = subprocess.run([autopart, "run", path, "--split-input-file", "--quiet"],
                           capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return path, 0, None, ["timeout after 300s"]
    m = re.search(r"checks: (\d+)/(\d+) passed", p.stdout)
    errors = [l for l in p.stderr.splitlines() if "error:" in l]
    if not m:
        return path, 0, None, errors or ["no summary (exit %d)" % p.returncode]
    return path, int(m.group(1)), int(m.group(2)), errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--root", required=True, help="the stablehlo checkout (../shared/peer/stablehlo)")
    ap.add_argument("--ratchet")
    ap.add_argument("--write-ratchet")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    files = []
    for folder in FOLDERS:
        d = os.path.join(args.root, folder)
        if os.path.isdir(d):
            files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".mlir"))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(lambda f: run_file(args.autopart, f), files))

    by_folder = collections.OrderedDict((f, [0, 0]) for f in FOLDERS)
    counts = {}
    for path, passed, total, errors in results:
        rel = os.path.relpath(path, args.root)
        folder = os.path.dirname(rel)
        if total is None:
            # No summary: the file's checks count as failed.
            with open(path) as fh:
                text = fh.read()
            total = len(re.findall(r"check\.expect_|@check\.", text))
        by_folder[folder][0] += passed
        by_folder[folder][1] += total
        counts[rel] = (passed, total, errors)

    if args.report:
        for folder, (p, t) in by_folder.items():
            print("%-40s %5d / %5d checks pass (%.1f%%)" % (folder, p, t, 100.0 * p / max(t, 1)))
        for rel, (p, t, errors) in sorted(counts.items()):
            if p != t:
                print("FAIL %s %d/%d" % (rel, p, t))
                for e in errors[:3]:
                    print("    " + e[:300])
    if args.write_ratchet:
        with open(args.write_ratchet, "w") as out:
            out.write("# StableHLO interpreter tests and JAX test programs run by `autopart run`\n"
                      "# (tests/tools/stablehlo_suite.py): path under ../shared/peer/stablehlo, then\n"
                      "# the minimum number of passing check ops. A ratchet: raise, never lower.\n")
            for rel, (p, t, _) in sorted(counts.items()):
                if p:
                    out.write("%s %d\n" % (rel, p))
    bad = 0
    if args.ratchet:
        with open(args.ratchet) as fh:
            for line in fh:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                rel, minimum = line.split()
                p = counts.get(rel, (0, 0, []))[0]
                if p < int(minimum):
                    bad += 1
                    print("REGRESSION %s: %d passing checks, ratchet says %s" % (rel, p, minimum))
                    for e in counts.get(rel, (0, 0, ["missing"]))[2][:3]:
                        print("    " + e[:300])
        total_p = sum(v[0] for v in by_folder.values())
        total_t = sum(v[1] for v in by_folder.values())
        print("stablehlo suites: %d/%d checks pass; %d ratchet regressions" % (total_p, total_t, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
