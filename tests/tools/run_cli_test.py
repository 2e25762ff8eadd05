#!/usr/bin/env python3
"""`autopart run` end to end (docs/executor.md): results printed and saved
(.npy/.npz, read back without numpy), --entry, --inputs, --seed,
--split-input-file, --quiet, and assertions: a failed check or an
unsupported op exits 1 with `file:line:col: error: ...`.

usage: run_cli_test.py --autopart BIN"""
import argparse, os, struct, subprocess, sys, tempfile, zipfile

PROGRAM = """func.func @main(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xi32>) {
  %0 = stablehlo.add %a, %a : tensor<2x3xf32>
  %1 = stablehlo.iota dim = 0 : tensor<3xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<3xi32>
}
func.func @other() -> tensor<f32> {
  %0 = stablehlo.constant dense<4.5> : tensor<f32>
  return %0 : tensor<f32>
}
"""

CHECKS = """func.func @ok() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>
  func.return
}
// -----
func.func @bad() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.exponential %0 : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[2.7182817, 7.0]> : tensor<2xf32>
  func.return
}
"""

UNSUPPORTED = """func.func @main() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<2xf32>
  %1 = stablehlo.custom_call @unknown_target(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
"""


def npy(data):
    assert data[:6] == b"\x93NUMPY", data[:10]
    hlen = struct.unpack("<H", data[8:10])[0]
    header = eval(data[10:10 + hlen].decode())  # a Python dict literal
    return header, data[10 + hlen:]


def run(autopart, *args):
    return subprocess.run([autopart, "run", *args], capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--autopart", required=True)
    a = ap.parse_args()
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "p.mlir")
        open(prog, "w").write(PROGRAM)
        checks = os.path.join(d, "c.mlir")
        open(checks, "w").write(CHECKS)
        bad = os.path.join(d, "u.mlir")
        open(bad, "w").write(UNSUPPORTED)

        p = run(a.autopart, prog, "--inputs", "zeros")
        expect(p.returncode == 0 and "tensor<2x3xf32> [0, 0, 0, 0, 0, 0]" in p.stdout, "zeros inputs: " + p.stdout + p.stderr)
        expect("tensor<3xi32> [0, 1, 2]" in p.stdout, "iota printed: " + p.stdout)

        s1 = run(a.autopart, prog, "--seed", "7").stdout
        s2 = run(a.autopart, prog, "--seed", "7").stdout
        s3 = run(a.autopart, prog, "--seed", "8").stdout
        expect(s1 == s2 and s1 != s3, "--seed is deterministic and matters")

        out = os.path.join(d, "r.npz")
        p = run(a.autopart, prog, "--inputs", "zeros", "--out", out)
        expect(p.returncode == 0, "--out npz: " + p.stderr)
        with zipfile.ZipFile(out) as z:
            expect(sorted(z.namelist()) == ["main_0.npy", "main_1.npy"], "npz members " + str(z.namelist()))
            h, body = npy(z.read("main_1.npy"))
            expect(h["descr"] == "<i4" and h["shape"] == (3,), "npy header " + str(h))
            expect(struct.unpack("<3i", body) == (0, 1, 2), "npy data")

        # The saved results fed back as inputs: @main(x) = x + x again.
        first = os.path.join(d, "first.npz")
        run(a.autopart, prog, "--seed", "3", "--out", first)
        with zipfile.ZipFile(first) as z, zipfile.ZipFile(os.path.join(d, "in.npz"), "w") as w:
            w.writestr("a.npy", z.read("main_0.npy"))
        again = os.path.join(d, "again.npz")
        p = run(a.autopart, prog, "--inputs", os.path.join(d, "in.npz"), "--out", again)
        expect(p.returncode == 0, "--inputs FILE.npz: " + p.stderr)
        with zipfile.ZipFile(first) as z1, zipfile.ZipFile(again) as z2:
            _, x = npy(z1.read("main_0.npy"))
            _, y = npy(z2.read("main_0.npy"))
            xs = struct.unpack("<6f", x)
            ys = struct.unpack("<6f", y)
            expect(all(abs(2 * u - v) < 1e-6 for u, v in zip(xs, ys)), "npz inputs were used")
        p = run(a.autopart, prog, "--entry", "main", "--inputs", os.path.join(d, "first.npz"))
        expect(p.returncode == 1 and "arguments" in p.stderr, "wrong npz arity is an error: " + p.stderr)

        one = os.path.join(d, "o.npy")
        p = run(a.autopart, prog, "--entry", "other", "--out", one)
        h, body = npy(open(one, "rb").read())
        expect(p.returncode == 0 and h["shape"] == () and struct.unpack("<f", body)[0] == 4.5, "--entry other --out .npy")

        p = run(a.autopart, checks, "--split-input-file", "--quiet")
        expect(p.returncode == 1, "a failed check exits 1")
        expect("checks: 1/2 passed" in p.stdout, "check counts: " + p.stdout)
        expect(f"{checks}:10:3: error: check failed: element 1" in p.stderr, "located check failure: " + p.stderr)

        p = run(a.autopart, bad)
        expect(p.returncode == 1 and f"{bad}:3:8: error:" in p.stderr and "unknown_target" in p.stderr,
               "located unsupported op: " + p.stderr)
        expect("tensor<2xf32>" not in p.stdout, "no result after an error")

        p = run(a.autopart, prog, "--inputs", "ones")
        expect(p.returncode == 1 and "--inputs" in p.stderr, "bad --inputs rejected")

    for f in failures:
        print("FAIL:", f)
    print("run_cli_test: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
