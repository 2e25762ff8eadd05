#!/usr/bin/env python3
"""Plans never shard a value on an axis an enclosing sdy.manual_computation
has made manual (analysis/ManualAxes.h): every search method (`search
--method all` lists them; each is run with -o) and the tactics `dp,fsdp`,
`auto` and `dp,fsdp,auto` on tests/golden/search/manual_computation_mlp.mlir
(manual over "x", "y" and "z" free), with the input's mesh and with
`--mesh data=2,model=2,pipe=2 --input-shardings map` ("x" becomes "data"):
the program written verifies (autopart-opt exits 0) and no sdy.sharding
inside the body, or in the function the body calls, names a manual axis.

usage: manual_axes_test.py --autopart BIN --opt BIN --root SOURCE_DIR"""
import argparse, os, re, subprocess, sys, tempfile, unittest

ARGS = None
MAP = ["--mesh", "data=2,model=2,pipe=2", "--input-shardings", "map"]
BUDGET = ["--iterations", "40", "--seed", "1", "--time-budget", "3"]


def program():
    return os.path.join(ARGS.root, "tests", "golden", "search", "manual_computation_mlp.mlir")


def run(*cmd):
    return subprocess.run([ARGS.autopart, *cmd], capture_output=True, text=True)


def manual_axes(text):
    m = re.search(r"manual_axes=\{([^}]*)\}", text)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else []


def body_shardings(text):
    """The sdy.sharding attributes written inside the manual computation's
    body and in @act (called from it)."""
    lines = text.splitlines()
    code = lambda l: not l.lstrip().startswith("//")
    begin = next(i for i, l in enumerate(lines) if code(l) and "sdy.manual_computation(" in l)
    end = next(i for i in range(begin, len(lines)) if code(lines[i]) and "sdy.return" in lines[i])
    act = next(i for i, l in enumerate(lines) if code(l) and "func.func private @act" in l)
    inside = lines[begin + 1:end + 1] + lines[act:]
    return [s for l in inside for s in re.findall(r"sdy\.sharding = (#sdy\.sharding[^ ]*.*?\]>)", l)]


class ManualAxesTest(unittest.TestCase):
    def check_written(self, out, what):
        self.assertTrue(os.path.exists(out), what)
        p = subprocess.run([ARGS.opt, out], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, what + ": " + p.stderr)
        with open(out) as f:
            text = f.read()
        axes = manual_axes(text)
        self.assertTrue(axes, what)
        for s in body_shardings(text):
            for a in axes:
                self.assertNotIn('"%s"' % a, s, what + ": " + s)

    def test_every_search_method(self):
        for extra in ([], MAP):
            p = run("search", program(), "--method", "all", *BUDGET, *extra)
            self.assertEqual(p.returncode, 0, p.stderr)
            table = p.stdout.split("\n\n")[1].splitlines()[1:]
            methods = [row.split()[0] for row in table if row.strip()]
            for m in ("mcts", "exhaustive", "greedy", "random", "ilp", "dp", "fsdp", "megatron"):
                self.assertIn(m, methods)
            for m in methods:
                out = os.path.join(tempfile.mkdtemp(), "s.mlir")
                p = run("search", program(), "--method", m, *BUDGET, *extra, "-o", out)
                self.assertEqual(p.returncode, 0, m + " " + " ".join(extra) + ": " + p.stderr)
                self.check_written(out, "search --method " + m + " " + " ".join(extra))

    def test_tactics(self):
        for extra in ([], MAP):
            for tactics in ("dp,fsdp", "auto", "dp,fsdp,auto"):
                out = os.path.join(tempfile.mkdtemp(), "p.mlir")
                p = run("plan", program(), "--tactics", tactics, *BUDGET, *extra, "-o", out)
                what = "plan --tactics " + tactics + " " + " ".join(extra)
                self.assertEqual(p.returncode, 0, what + ": " + p.stderr)
                self.check_written(out, what)

    def test_body_is_sharded_on_free_axes_only(self):
        # The check above must be able to fail: dp shards the batch inside
        # the body, on a free axis.
        out = os.path.join(tempfile.mkdtemp(), "p.mlir")
        p = run("plan", program(), "--tactics", "dp:y", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            found = body_shardings(f.read())
        self.assertTrue(any('"y"' in s for s in found), found)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--opt", required=True)
    ap.add_argument("--root", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
