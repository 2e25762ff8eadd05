#!/usr/bin/env python3
"""Parse -> print -> parse fixed-point check over directories of .mlir files.

Every file must parse (chunked at `// -----` when it has such lines) and the
printed output, parsed and printed again, must be byte-identical. With
--allow-invalid, a chunk may instead fail with a clean `file:line:col: error:`
diagnostic and exit code 1 (Shardy's verification tests are meant to be
invalid); a crash or a malformed error is still a failure.
Prints one line per failure and a summary `N files, N chunks: N ok, N invalid, N failed`."""
import argparse, os, re, subprocess, sys, tempfile

def chunks(text):
    parts, cur = [], []
    for line in text.split("\n"):
        if re.match(r"^\s*//\s*-----", line):
            parts.append("\n".join(cur)); cur = []
        else:
            cur.append(line)
    parts.append("\n".join(cur))
    return [p for p in parts if p.strip()]

def run(opt, text, tmp):
    with open(tmp, "w") as f:
        f.write(text)
    return subprocess.run([opt, tmp], capture_output=True, text=True, timeout=120)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", required=True)
    ap.add_argument("--allow-invalid", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            for root, _, fs in os.walk(p):
                files += [os.path.join(root, f) for f in sorted(fs) if f.endswith(".mlir")]
        else:
            files.append(p)
    tmp = tempfile.mktemp(suffix=".mlir")
    nchunks = ok = invalid = failed = 0
    err_re = re.compile(r"^[^\n]*:\d+:\d+: error: ", re.M)
    for path in sorted(files):
        for i, chunk in enumerate(chunks(open(path, encoding="utf-8", errors="replace").read())):
            nchunks += 1
            p1 = run(a.opt, chunk, tmp)
            if p1.returncode != 0:
                if a.allow_invalid and p1.returncode == 1 and err_re.search(p1.stderr):
                    invalid += 1
                    continue
                failed += 1
                print("FAIL parse %s chunk %d: %s" % (path, i, (p1.stderr.strip().splitlines() or ["exit %d" % p1.returncode])[0]))
                continue
            p2 = run(a.opt, p1.stdout, tmp)
            if p2.returncode != 0 or p2.stdout != p1.stdout:
                failed += 1
                print("FAIL fixed point %s chunk %d: %s" % (path, i, p2.stderr.strip()[:200]))
                continue
            ok += 1
    print("%d files, %d chunks: %d ok, %d invalid, %d failed" % (len(files), nchunks, ok, invalid, failed))
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
