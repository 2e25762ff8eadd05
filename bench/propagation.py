#!/usr/bin/env python3
"""Whole-process cost of basic sharding propagation (docs/propagation-speed.md):
`autopart-opt FILE -sdy-basic-propagate` against `autopart-opt FILE` (parse,
verify, print) on the largest shared model and on a generated 200k-op chain
whose only sharding is the function result's. Runs each command RUNS times
in turn and prints min and median wall seconds and the difference, which is
what propagation adds to a parse + print.

  bench/propagation.py [BUILD_DIR] [RUNS]

The chain is the same text as bench::propagationChain (SyntheticProgram.cpp),
which the Google Benchmark (bench/PropagationBench.cpp) times in-process.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
opt = os.path.join(build, "bin", "autopart-opt")
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
model = os.path.join(root, "..", "shared", "models", "gpt_oss_20b_sharded_2d.mlir")


def propagation_chain(num_ops):
    x, y = "tensor<64x256xf32>", "tensor<64x16x16xf32>"
    out = ['module @jit_chain {\n  sdy.mesh @mesh = <["data"=2, "model"=4]>\n',
           f"  func.func public @main(%arg0: {x}, %arg1: tensor<256x256xf32>) -> ({x}"
           ' {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {\n']
    cur, vid = "%arg0", 0
    for _ in range(num_ops // 6):
        v = [f"%{vid + k}" for k in range(6)]
        vid += 6
        out.append(f"    {v[0]} = stablehlo.dot_general {cur}, %arg1, contracting_dims = [1] x [0] : "
                   f"({x}, tensor<256x256xf32>) -> {x}\n")
        out.append(f"    {v[1]} = stablehlo.reshape {v[0]} : ({x}) -> {y}\n")
        out.append(f"    {v[2]} = stablehlo.transpose {v[1]}, dims = [0, 2, 1] : ({y}) -> {y}\n")
        out.append(f"    {v[3]} = stablehlo.reshape {v[2]} : ({y}) -> {x}\n")
        out.append(f"    {v[4]} = stablehlo.add {v[3]}, {cur} : {x}\n")
        out.append(f"    {v[5]} = stablehlo.negate {v[4]} : {x}\n")
        cur = v[5]
    out.append(f"    return {cur} : {x}\n  }}\n}}\n")
    return "".join(out)


def wall(args):
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def compare(name, path):
    base, prop = [], []
    wall([opt, path])  # warm the page cache
    for _ in range(runs):  # interleaved, so drift hits both alike
        base.append(wall([opt, path]))
        prop.append(wall([opt, path, "-sdy-basic-propagate"]))
    diffs = [p - b for p, b in zip(prop, base)]
    print(f"| {name} | {min(base):.3f} / {statistics.median(base):.3f} "
          f"| {min(prop):.3f} / {statistics.median(prop):.3f} "
          f"| {statistics.median(diffs):.3f} |")


print(f"autopart-opt wall seconds, min / median of {runs} runs\n")
print("| program | parse + print | parse + propagate + print | propagation (median difference) |")
print("|---|---|---|---|")
compare("gpt_oss_20b_sharded_2d", model)
with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
    f.write(propagation_chain(200000))
try:
    compare("chain_200k", f.name)
finally:
    os.unlink(f.name)
