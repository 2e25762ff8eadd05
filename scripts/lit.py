#!/usr/bin/env python3
"""Runs one autopart golden test file: each `// RUN:` line is a shell pipeline
in which `%s` is the file, `autopart-opt`/`autopart` are the built drivers and
`FileCheck` is LLVM's. `not CMD` inverts the exit status. All RUN lines must
succeed. Unlike ../shared/tools/run-lit this does not split files per function:
golden tests are written for autopart and may use whole-module commands."""
import argparse, os, re, subprocess, sys

NOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "not")

def run_lines(path):
    """The file's `// RUN:` commands, continuation lines (`\\`) joined."""
    runs, cur = [], None
    for ln in open(path, encoding="utf-8"):
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", ln.rstrip("\n"))
        if not m:
            continue
        part = m.group(1).rstrip()
        cur = (cur + " " if cur is not None else "") + part.rstrip("\\").rstrip()
        if not part.endswith("\\"):
            runs.append(cur)
            cur = None
    return runs

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", required=True)
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--filecheck", required=True)
    ap.add_argument("file")
    a = ap.parse_args()
    runs = run_lines(a.file)
    if not runs:
        print("no RUN lines in", a.file)
        return 1
    for r in runs:
        cmd = r.replace("%s", a.file)
        cmd = re.sub(r"(?<![\w/.-])autopart-opt(?![\w-])", a.opt, cmd)
        cmd = re.sub(r"(?<![\w/.-])autopart(?![\w-])", a.autopart, cmd)
        cmd = re.sub(r"(?<![\w/.-])FileCheck(?![\w-])", a.filecheck, cmd)
        cmd = re.sub(r"(?<![\w/.-])not(?= )", NOT, cmd)
        print("RUN:", cmd)
        p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        if p.returncode != 0:
            print(p.stdout[-6000:])
            print("FAILED:", cmd)
            return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
