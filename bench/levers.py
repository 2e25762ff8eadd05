#!/usr/bin/env python3
"""Memory levers at GPT-3 scale (docs/levers.md): `autopart search` on the
175B step of `autopart gen gpt --preset 175b` (GPT-3's 96 layers, d 12288,
sequences of 2048, global batch 1536) and on the 145.6B row of Megatron-LM's
Table 1 (80 layers, batch 2304, 1536 GPUs), each with the default
`--levers auto`; the plan it returns is then simulated again with
`--sync-collectives` (Megatron-LM blocks on its collectives).

  bench/levers.py [BUILD_DIR] > table.md

TFLOP/s per GPU use the paper's equation 3 (the FLOPs of a step with full
recomputation, as Table 1 counts them), so the numbers compare with it.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
autopart = os.path.join(build, "bin", "autopart")
budget = "15"

# (label, gen args, (layers, hidden, vocab, batch, seq), mesh, device, published TF/s per GPU or None)
cases = [
    ("GPT-3 175B", ["--preset", "175b"], (96, 12288, 50304, 1536, 2048), "data=8,model=8", "h100-80gb", None),
    ("GPT-3 175B", ["--preset", "175b"], (96, 12288, 50304, 1536, 2048), "data=64,model=8", "h100-80gb", None),
    ("GPT-3 175B", ["--preset", "175b"], (96, 12288, 50304, 1536, 2048), "data=8,model=8", "a100-80gb", None),
    ("GPT-3 175B", ["--preset", "175b"], (96, 12288, 50304, 1536, 2048), "data=64,model=8", "a100-80gb", None),
    ("Table 1 145.6B", ["--layers", "80", "--d-model", "12288", "--heads", "96", "--head-dim", "128", "--seq", "2048",
                        "--batch", "2304", "--vocab", "51200", "--dtype", "bf16", "--master-dtype", "f32",
                        "--dropout", "0.1"], (80, 12288, 51200, 2304, 2048), "data=192,model=8", "a100-80gb", 148),
]


def run(args):
    start = time.time()
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(" ".join(args) + " failed:\n" + p.stderr)
    return p.stdout, time.time() - start


def eq3(layers, h, vocab, batch, seq):
    return 96 * batch * seq * layers * h * h * (1 + seq / (6 * h) + vocab / (16 * layers * h))


print("| model | devices | mesh | device | levers chosen | step (XLA async) | step (synchronous) | compute | "
      "peak GiB | fits | TF/s per GPU (async / sync) | Megatron-LM Table 1 | search wall |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
started = time.time()
with tempfile.TemporaryDirectory() as tmp:
    for label, gen_args, dims, mesh, device, published in cases:
        prog = os.path.join(tmp, "gpt.mlir")
        plan = os.path.join(tmp, "plan.mlir")
        run([autopart, "gen", "gpt", *gen_args, "-o", prog])
        out, wall = run([autopart, "search", prog, "--mesh", mesh, "--device", device, "--time-budget", budget,
                         "--json", "-o", plan])
        j = json.loads(out)
        r = j["results"][0]
        sync = json.loads(run([autopart, "simulate", plan, "--device", device, "--json", "--sync-collectives"])[0])
        n = j["devices"]
        f = eq3(*dims)
        tf_async = f / r["step_seconds"] / n / 1e12
        tf_sync = f / sync["step_seconds"] / n / 1e12
        print(f"| {label} | {n} | `{mesh}` | {device} | `{j['levers']}` | {r['step_seconds']:.1f} s | "
              f"{sync['step_seconds']:.1f} s | {r['compute_seconds']:.1f} s | {r['peak_bytes'] / 2**30:.1f} | "
              f"{'yes' if r['fits'] else 'no'} | {tf_async:.0f} / {tf_sync:.0f} | "
              f"{str(published) + ' TF/s (t=8, p=8)' if published else '—'} | {wall:.0f} s |", flush=True)
print(f"\n(generated, searched and simulated in {time.time() - started:.0f} s; --time-budget {budget})")
