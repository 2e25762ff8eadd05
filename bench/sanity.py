#!/usr/bin/env python3
"""Simulator sanity table (docs/sanity.md): a GPT-style training step from
`autopart gen gpt` planned with the expert tactics (`autopart plan`) and
simulated (`autopart simulate --json`) on 8 and 64 devices.

  bench/sanity.py [BUILD_DIR] > table.md
"""
import json
import os
import subprocess
import sys
import tempfile
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
autopart = os.path.join(build, "bin", "autopart")
device = "a100-80gb"

# (devices, strategy, mesh, tactics, global batch in sequences of 2048
# tokens). The global batch is fixed per device count (8 sequences per
# device), so the strategies of one device count run the same step.
models = [("GPT 350M", ["--preset", "350m"]), ("GPT 1.3B", ["--preset", "1.3b"])]
cases = [
    (8, "DP", "data=8", "dp", 64),
    (8, "DP + selective remat", "data=8", "dp,remat:selective", 64),
    (8, "DP + full remat", "data=8", "dp,remat:full", 64),
    (8, "FSDP", "data=8", "dp,fsdp", 64),
    (8, "Megatron", "model=8", "megatron", 64),
    (64, "DP", "data=64", "dp", 512),
    (64, "DP + full remat", "data=64", "dp,remat:full", 512),
    (64, "FSDP", "data=64", "dp,fsdp", 512),
    (64, "DP + Megatron", "data=8,model=8", "dp,megatron", 512),
]


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def gib(x):
    return x / 2**30


print("| model | devices | strategy | mesh | batch (seq) | step | compute | comm | peak GiB / device | activations GiB | fits | roofline |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
start = time.time()
with tempfile.TemporaryDirectory() as tmp:
    for label, gen_args in models:
        for devices, strategy, mesh, tactics, batch in cases:
            prog = os.path.join(tmp, "gpt.mlir")
            plan = os.path.join(tmp, "plan.mlir")
            run([autopart, "gen", "gpt", *gen_args, "--batch", str(batch), "-o", prog])
            run([autopart, "plan", prog, "--mesh", mesh, "--tactics", tactics, "-o", plan])
            j = json.loads(run([autopart, "simulate", plan, "--device", device, "--json"]))
            mem = j["memory"]
            print(f"| {label} | {devices} | {strategy} | `{mesh}` | {batch} | {j['step_seconds']:.3f} s | "
                  f"{j['compute_seconds']:.3f} s | {j['communication_seconds']:.3f} s | {gib(mem['peak_bytes']):.1f} | "
                  f"{gib(mem['breakdown']['activations']):.1f} | "
                  f"{'yes' if mem['fits'] else 'no'} | {j['roofline_fraction']:.2f} |")
print(f"\n({device}; generated, planned and simulated in {time.time() - start:.0f} s)")
