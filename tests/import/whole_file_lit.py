#!/usr/bin/env python3
"""Runs a Shardy lit file whole, as Shardy's own lit does: every RUN line on the
entire file in one process (sdy_opt -> autopart-opt, FileCheck -> FileCheck).

run-lit cuts a file into one case per function, which is right for most files
but not for behaviour that spans a module or a process:
  - lift_inlined_meshes.mlir numbers lifted meshes across all functions of a
    chunk (`@mesh_1`, `@mesh_2` ... come from a symbol-name counter shared by
    the whole module), and its CHECK lines for one function name meshes that
    another function lifted;
  - import_func_calls*.mlir expect the "has multiple call ops" warning once:
    Shardy emits it once per process, so only the first chunk that clones a
    callee warns and the later chunks' -verify-diagnostics expect nothing.
Here such files pass or fail as a whole.

  $ whole_file_lit.py --opt build/bin/autopart-opt --filecheck FileCheck FILE
  FILE: 2/2 RUN lines passed
"""
import argparse, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from lit import run_lines  # noqa: E402  (one RUN-line reader for goldens and peer files)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", required=True)
    ap.add_argument("--filecheck", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    failed = 0
    for path in a.files:
        runs = run_lines(path)
        ok = 0
        for r in runs:
            cmd = r.replace("%s", path)
            cmd = re.sub(r"(?<![\w/-])sdy_opt(?![\w-])", a.opt, cmd)
            cmd = re.sub(r"(?<![\w/-])FileCheck(?![\w-])", a.filecheck, cmd)
            p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True)
            if p.returncode == 0:
                ok += 1
            else:
                print("FAIL: %s\n%s" % (cmd, "\n".join((p.stdout + p.stderr).splitlines()[:20])))
        print("%s: %d/%d RUN lines passed" % (path, ok, len(runs)))
        if not runs or ok != len(runs):
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
