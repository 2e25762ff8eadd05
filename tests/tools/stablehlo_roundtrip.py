#!/usr/bin/env python3
"""Every StableHLO test program parses and round-trips through autopart-opt.

Each .mlir file is split into chunks at `// -----` lines (one module each).
A chunk is *parsed* when autopart-opt prints it without error. It is
*round-tripped* when, in addition,
  1. the printed text parses again and prints identically (a fixed point),
  2. the printed text means the same program: its generic form
     (-mlir-print-op-generic) equals the generic form of the original, so no
     op, attribute or type was dropped or changed on the way, and
  3. the generic form has as many ops as the original text names, and
  4. every op of the dialects autopart models (stablehlo, chlo, func, sdy) was read
     into its operands and attributes, not kept as uninterpreted text (the
     parser's fallback for unknown pretty forms, `__custom_syntax`).
Counts are reported per folder; the run fails when a folder is below
--min-percent (100 by default) on either count.

  $ stablehlo_roundtrip.py --opt build/bin/autopart-opt ../shared/peer/stablehlo
  stablehlo/testdata: parsed 44/44, round-tripped 44/44
  ...

usage: stablehlo_roundtrip.py --opt BIN [--min-percent P] [-v] PATH..."""
import argparse, collections, os, re, subprocess, sys, tempfile

SPLIT = re.compile(r"^\s*//\s*-----")
# An op at the start of a statement: `%a, %b = name`, `name`, `"name"(`.
OP_START = re.compile(r'^\s*(?:%[\w.$#:]+(?:\s*,\s*%[\w.$#:]+)*\s*=\s*)?("?)([a-z_][\w$]*(?:\.[\w$]+)+|return|call)\1[\s(<{]')
GENERIC_OP = re.compile(r'^\s*(?:%[^=]*=\s*)?"[\w.$]+"\(')
TEMPLATED = re.compile(r'^\s*(?:%[^=]*=\s*)?"([\w.$]+)"\(.*__custom_syntax = ')
MODELED_DIALECTS = {"stablehlo", "chlo", "func", "sdy"}


def chunks(text):
    parts, cur = [], []
    for line in text.split("\n"):
        if SPLIT.match(line):
            parts.append("\n".join(cur))
            cur = []
        else:
            cur.append(line)
    parts.append("\n".join(cur))
    return [p for p in parts if p.strip()]


def strip_comments(text):
    out = []
    for line in text.split("\n"):
        # `//` outside a string literal starts a comment.
        in_str, i = False, 0
        while i < len(line):
            c = line[i]
            if c == "\\" and in_str:
                i += 2
                continue
            if c == '"':
                in_str = not in_str
            elif not in_str and line.startswith("//", i):
                line = line[:i]
                break
            i += 1
        out.append(line)
    return "\n".join(out)


def count_ops(text, generic):
    pattern = GENERIC_OP if generic else OP_START
    n = 0
    for line in strip_comments(text).split("\n"):
        if pattern.match(line):
            n += 1
            # `}, {` closes one region and opens the next; `} : ` ends an op.
    return n


class Opt:
    def __init__(self, binary):
        self.binary = binary
        fd, self.tmp = tempfile.mkstemp(suffix=".mlir")
        os.close(fd)

    def run(self, text, *flags):
        with open(self.tmp, "w") as f:
            f.write(text)
        return subprocess.run([self.binary, self.tmp, *flags], capture_output=True, text=True,
                              timeout=120)


def check_chunk(opt, chunk):
    """Returns (parsed, round_tripped, reason)."""
    p1 = opt.run(chunk)
    if p1.returncode != 0:
        return False, False, "parse: " + (p1.stderr.strip().splitlines() or ["exit %d" % p1.returncode])[0]
    p2 = opt.run(p1.stdout)
    if p2.returncode != 0:
        return True, False, "re-parse: " + (p2.stderr.strip().splitlines() or [""])[0]
    if p2.stdout != p1.stdout:
        a, b = p1.stdout.split("\n"), p2.stdout.split("\n")
        diff = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        return True, False, "not a fixed point at printed line %d: %r vs %r" % (
            diff + 1, a[diff] if diff < len(a) else "", b[diff] if diff < len(b) else "")
    g1 = opt.run(chunk, "-mlir-print-op-generic")
    g2 = opt.run(p1.stdout, "-mlir-print-op-generic")
    if g1.returncode != 0 or g2.returncode != 0:
        return True, False, "generic print failed"
    if g1.stdout != g2.stdout:
        a, b = g1.stdout.split("\n"), g2.stdout.split("\n")
        diff = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), 0)
        return True, False, "printed form means another program (generic line %d: %r vs %r)" % (
            diff + 1, a[diff] if diff < len(a) else "", b[diff] if diff < len(b) else "")
    for line in g1.stdout.split("\n"):
        m = TEMPLATED.match(line)
        if m and m.group(1).split(".")[0] in MODELED_DIALECTS:
            return True, False, "%s kept as uninterpreted text" % m.group(1)
    want, got = count_ops(chunk, False), count_ops(g1.stdout, True)
    # The generic form adds the implicit `module` and terminators the
    # pretty form may leave out (an empty `func.return`), never fewer ops.
    if got < want:
        return True, False, "original names %d ops, generic form has %d" % (want, got)
    return True, True, ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", required=True)
    ap.add_argument("--min-percent", type=float, default=100.0)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every failing chunk")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            for root, _, fs in os.walk(p):
                files += [os.path.join(root, f) for f in fs if f.endswith(".mlir")]
        else:
            files.append(p)
    opt = Opt(a.opt)
    stats = collections.OrderedDict()  # folder -> [total, parsed, round-tripped]
    failures = []
    base = os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files]) if files else ""
    for path in sorted(files):
        folder = os.path.relpath(os.path.dirname(os.path.abspath(path)), os.path.dirname(base))
        s = stats.setdefault(folder, [0, 0, 0])
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for i, chunk in enumerate(chunks(text)):
            parsed, tripped, why = check_chunk(opt, chunk)
            s[0] += 1
            s[1] += parsed
            s[2] += tripped
            if not tripped:
                failures.append("%s chunk %d: %s" % (path, i, why))
    os.unlink(opt.tmp)
    if a.verbose or len(failures) <= 20:
        for f in failures:
            print("FAIL " + f)
    elif failures:
        for f in failures[:20]:
            print("FAIL " + f)
        print("... %d more failures (-v lists all)" % (len(failures) - 20))
    ok = True
    totals = [0, 0, 0]
    for folder, (total, parsed, tripped) in stats.items():
        print("%s: parsed %d/%d, round-tripped %d/%d" % (folder, parsed, total, tripped, total))
        totals = [x + y for x, y in zip(totals, (total, parsed, tripped))]
        if min(parsed, tripped) * 100.0 < a.min_percent * total:
            ok = False
    print("all: parsed %d/%d, round-tripped %d/%d" % (totals[1], totals[0], totals[2], totals[0]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
