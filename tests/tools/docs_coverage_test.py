#!/usr/bin/env python3
"""Every CLI flag the README and docs/ show is real and tested (issue 18).

For each `autopart CMD ... --flag` (and `autopart-opt -pass`) written in
README.md or docs/*.md, checks that `CMD --help` lists the flag (the docs are
true) and that some test under tests/ or the demo script uses the flag with
that command (it is tested). JSON keys are checked by json_schema_test.py.

usage: docs_coverage_test.py --autopart BIN --root SRC"""
import argparse, glob, os, re, subprocess, sys

CMD_SPAN = re.compile(r"`(autopart [a-z-]+(?:[ `][^`]*)?)`")
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def doc_files(root):
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))


def documented_flags(root):
    """{(command, flag): first doc file:line}, from backticked `autopart CMD ...`
    spans and from fenced shell blocks' `autopart CMD ...` lines."""
    out = {}
    for path in doc_files(root):
        in_fence = False
        for no, line in enumerate(open(path, encoding="utf-8"), 1):
            if line.startswith("```"):
                in_fence = not in_fence
                continue
            spans = CMD_SPAN.findall(line)
            if in_fence:
                spans += [m.group(0) for m in re.finditer(r"autopart [a-z-]+(?=\s|$)[^|;&#]*", line)]
            for span in spans:
                words = span.split()
                if len(words) < 2 or words[0] != "autopart":
                    continue
                cmd = words[1]
                # `autopart gen mlp|gpt ...`: the flags belong to the subcommands.
                if len(words) > 2 and re.fullmatch(r"[a-z0-9]+(\\?\|[a-z0-9]+)*", words[2]):
                    subs = [w for w in re.split(r"\\?\|", words[2]) if w]
                    if cmd == "gen":
                        cmd = "gen " + ",".join(subs)
                for flag in FLAG.findall(span):
                    if flag == "--help":
                        continue
                    out.setdefault((cmd, flag), f"{os.path.relpath(path, root)}:{no}")
    return out


def test_texts(root):
    texts = []
    for pattern in ("tests/**/*", "scripts/demo.sh"):
        for path in glob.glob(os.path.join(root, pattern), recursive=True):
            if os.path.isfile(path) and not path.endswith((".png", ".npy", ".npz")):
                try:
                    texts.append((path, open(path, encoding="utf-8").read()))
                except UnicodeDecodeError:
                    pass
    return texts


def used_in_tests(texts, cmd, flag):
    # The command and the flag in one line (a RUN line, a shell line) or one
    # Python call list ("plan", ..., "--seed").
    for _, text in texts:
        if flag not in text:
            continue
        for line in text.split("\n"):
            if flag in line and re.search(r"\b" + re.escape(cmd) + r"\b", line):
                return True
        # Python tests build argument lists over several lines.
        # (the command string, then the flag within the same statement: no
        # blank line and no new call of run/js/search in between).
        call = re.escape('"' + cmd + '"') + r"(?:(?!\n\s*\n|\brun\(|\bjs\()[\s\S]){0,400}?" + re.escape('"' + flag)
        if re.search(call, text):
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    flags = documented_flags(a.root)
    texts = test_texts(a.root)
    helps = {}
    failures = []
    for (cmd, flag), where in sorted(flags.items()):
        if cmd not in helps:
            words = cmd.split()
            texts_ = []
            for sub in (words[1].split(",") if len(words) > 1 else [None]):
                p = subprocess.run([a.autopart, words[0]] + ([sub] if sub else []) + ["--help"],
                                   capture_output=True, text=True)
                texts_.append(p.stdout if p.returncode == 0 else None)
            helps[cmd] = None if None in texts_ else "\n".join(texts_)
        if helps[cmd] is None:
            failures.append(f"{where}: `autopart {cmd}` is not a command")
            continue
        if not re.search(r"(?<![\w-])" + re.escape(flag) + r"(?![\w-])", helps[cmd]):
            failures.append(f"{where}: `autopart {cmd} {flag}` is documented but not an option")
        elif not used_in_tests(texts, cmd.split()[0], flag):
            failures.append(f"{where}: `autopart {cmd} {flag}` is documented but no test uses it")
    for f in failures:
        print(f)
    print(f"{len(flags)} documented flags, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
