#!/usr/bin/env python3
"""Benchmark of the automatic search: for each program x mesh (8, 64, 512,
2048 devices, 1-D and 2-D) x device preset, the simulated step time and peak
memory of the MCTS plan (auto), of each expert tactic, of the ILP baseline
when the build has it, and of the exhaustive search where it finishes, with
every method's search time. Writes bench/results/search.md.

  bench/search.py [--build build] [--out bench/results/search.md] [--quick]

Programs come from `autopart gen` when the build has it, else from
bench/search_programs.py (stand-ins: transformer stacks, forward + update)
plus the real JAX MLP training step in ../shared/models.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import search_programs  # noqa: E402

MESHES = [
    ("8", "data=8"), ("8", "data=2,model=4"),
    ("64", "data=64"), ("64", "data=8,model=8"),
    ("512", "data=512"), ("512", "data=64,model=8"),
    ("2048", "data=2048"), ("2048", "data=256,model=8"),
]
EXPERTS = ["dp", "fsdp", "megatron", "dp+megatron", "fsdp+megatron", "dp+fsdp+megatron"]


def run(cmd, timeout=600):
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p, time.time() - start


def has_command(autopart, name):
    p, _ = run([autopart, "--help"])
    return any(line.split()[:1] == [name] for line in p.stdout.splitlines() if line.startswith("  "))


def has_method(autopart, program, method):
    p, _ = run([autopart, "search", program, "--mesh", "data=2", "--method", method, "--iterations", "1",
                "--time-budget", "1", "--json"])
    return p.returncode == 0


def programs(autopart, tmp, quick):
    """(label, path, size: "small" (exhaustive attempted) / "medium" / "large" (first device only), origin)"""
    out = []
    mlp = os.path.join(ROOT, "..", "shared", "models", "jax_mnist_mlp_train_step.mlir")
    if os.path.exists(mlp):
        out.append(("jax MNIST MLP train step (real, batch 128)", mlp, "small", "shared/models"))
    if has_command(autopart, "gen"):
        for label, args, size in [("gen mlp", ["mlp"], "small"), ("gen unet", ["unet"], "small"),
                                  ("gen gnn", ["gnn"], "small"), ("gen t5", ["t5"], "medium"),
                                  ("gen gpt 125m", ["gpt", "--preset", "125m"], "medium"),
                                  ("gen gpt 175b", ["gpt", "--preset", "175b"], "large")]:
            path = os.path.join(tmp, label.replace(" ", "_") + ".mlir")
            p, _ = run([autopart, "gen"] + args + ["-o", path])
            if p.returncode == 0:
                out.append((label, path, size, "autopart gen " + " ".join(args)))
            else:
                print(f"autopart gen {' '.join(args)} failed: {p.stderr.strip()[:200]}", file=sys.stderr)
    stand_ins = [
        ("2-layer transformer stand-in (d 1024, S 512, B 16)", (2, 16, 512, 1024, 16, 64, 4096), "small"),
        ("12-layer GPT-2-size stand-in (d 768, S 1024, B 64)", (12, 64, 1024, 768, 12, 64, 3072), "medium"),
    ]
    if not quick:
        stand_ins.append(("96-layer GPT-3-175B-size stand-in (d 12288, S 2048, B 2048)",
                          (96, 2048, 2048, 12288, 96, 128, 49152), "large"))
    for label, dims, size in stand_ins:
        path = os.path.join(tmp, "stack_%d.mlir" % dims[0])
        with open(path, "w") as f:
            f.write(search_programs.stack(*dims))
        out.append((label, path, size, "bench/search_programs.py stack " + " ".join(map(str, dims))))
    return out


def search(autopart, program, mesh, device, methods, iterations, budget, levers="none"):
    cmd = [autopart, "search", program, "--mesh", mesh, "--device", device, "--method", ",".join(methods),
           "--json", "--time-budget", str(budget), "--levers", levers]
    if iterations:
        cmd += ["--iterations", str(iterations)]
    p, wall = run(cmd)
    if p.returncode != 0:
        return None, wall, p.stderr.strip()
    j = json.loads(p.stdout)
    res = {r["method"]: r for r in j["results"]}
    for r in res.values():
        r["levers"] = j.get("levers", "none")
    return res, wall, ""


def ms(r):
    if not r or not r.get("found"):
        return "—"
    s = "%.3g ms" % (r["step_seconds"] * 1e3)
    return s if r["fits"] else s + " (OOM)"


def gib(r):
    return "—" if not r or not r.get("found") else "%.1f" % (r["peak_bytes"] / 2**30)


def secs(r):
    return "—" if not r else "%.2f s" % r["search_seconds"]


def better(a, b):
    """a strictly better than b (fits first, then step)."""
    if a["fits"] != b["fits"]:
        return a["fits"]
    return a["step_seconds"] < b["step_seconds"] if a["fits"] else a["peak_bytes"] < b["peak_bytes"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "search.md"))
    ap.add_argument("--quick", action="store_true", help="skip the 96-layer program")
    ap.add_argument("--devices", default="h100-80gb,tpu-v5e")
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--budget", type=float, default=10, help="seconds per method")
    a = ap.parse_args()
    autopart = os.path.join(a.build, "bin", "autopart")
    devices = a.devices.split(",")
    started = time.time()
    lines = []
    summary = {"cases": 0, "auto_infeasible_with_feasible": 0, "auto_vs_expert": [], "auto_vs_exhaustive": [],
               "auto_vs_ilp": [], "lever_cases": 0, "lever_fits": 0, "lever_only": 0, "lever_seconds": []}
    with tempfile.TemporaryDirectory() as tmp:
        progs = programs(autopart, tmp, a.quick)
        ilp = has_method(autopart, progs[0][1], "ilp")
        methods = ["mcts"] + EXPERTS + (["ilp"] if ilp else [])
        for label, path, size, origin in progs:
            small = size == "small"
            lines.append(f"\n### {label}\n\nsource: `{origin}`\n")
            head = "| devices | mesh | device | auto step | auto GiB | auto search | best expert | expert step | auto / expert | " + \
                   " | ".join(EXPERTS) + (" | ILP step | ILP search" if ilp else "") + " | exhaustive | exh. search |" + \
                   " levers (auto) | with levers: step | GiB | search |"
            lines.append(head)
            lines.append("|" + "---|" * (head.count("|") - 1))
            for count, mesh in MESHES:
                for device in devices[:1] if size == "large" else devices:
                    res, wall, err = search(autopart, path, mesh, device, methods, a.iterations, a.budget)
                    if res is None:
                        lines.append(f"| {count} | `{mesh}` | {device} | error: {err[:80]} |")
                        continue
                    summary["cases"] += 1
                    auto = res["mcts"]
                    exh = None
                    if small:
                        e, _, _ = search(autopart, path, mesh, device, ["exhaustive"], 0, a.budget)
                        exh = e["exhaustive"] if e and e["exhaustive"]["complete"] else None
                    experts = [res[x] for x in EXPERTS if res[x].get("found")]
                    best = None
                    for x in experts:
                        if best is None or better(x, best):
                            best = x
                    feasible_exists = any(r.get("found") and r["fits"] for r in list(res.values()) + ([exh] if exh else []))
                    ratio = "—"
                    if best and best["fits"] and auto["fits"]:
                        q = auto["step_seconds"] / best["step_seconds"]
                        summary["auto_vs_expert"].append((label, mesh, device, q))
                        ratio = "%.3f" % q
                    elif auto["fits"] and best and not best["fits"]:
                        ratio = "experts OOM"
                    if exh and exh["fits"] and auto["fits"]:
                        summary["auto_vs_exhaustive"].append(auto["step_seconds"] / exh["step_seconds"])
                    row = f"| {count} | `{mesh}` | {device} | {ms(auto)} | {gib(auto)} | {secs(auto)} | " + \
                          f"{best['method'] if best else '—'} | {ms(best)} | {ratio} | " + \
                          " | ".join(ms(res[x]) for x in EXPERTS)
                    if ilp:
                        row += f" | {ms(res['ilp'])} | {secs(res['ilp'])}"
                        if res["ilp"].get("found") and res["ilp"]["fits"] and auto["fits"]:
                            summary["auto_vs_ilp"].append(auto["step_seconds"] / res["ilp"]["step_seconds"])
                    row += f" | {ms(exh) if exh else ('did not finish' if small else '—')} | {secs(exh)} |"
                    # Memory levers (`--levers auto`) when the sharding-only
                    # plan does not fit.
                    if auto["fits"]:
                        row += " none | — | — | — |"
                    else:
                        lv, lwall, lerr = search(autopart, path, mesh, device, ["mcts"], a.iterations, a.budget, "auto")
                        summary["lever_cases"] += 1
                        if lv is None:
                            row += f" error: {lerr[:60]} | — | — | — |"
                        else:
                            la = lv["mcts"]
                            summary["lever_seconds"].append(lwall)
                            if la.get("found") and la["fits"]:
                                summary["lever_fits"] += 1
                                if not feasible_exists:
                                    summary["lever_only"] += 1
                            elif feasible_exists:
                                summary["auto_infeasible_with_feasible"] += 1
                            row += f" {la['levers']} | {ms(la)} | {gib(la)} | {lwall:.1f} s |"
                    lines.append(row)
                    print(f"{label} {mesh} {device}: auto {ms(auto)} ({wall:.1f} s)", file=sys.stderr)
        # Determinism: the same search twice.
        det_prog = progs[-1][1]
        r1, _, _ = search(autopart, det_prog, "data=8,model=8", "h100-80gb", ["mcts"], 200, 600)
        r2, _, _ = search(autopart, det_prog, "data=8,model=8", "h100-80gb", ["mcts"], 200, 600)
        same = r1 is not None and r2 is not None and r1["mcts"]["actions"] == r2["mcts"]["actions"] and \
            r1["mcts"]["step_seconds"] == r2["mcts"]["step_seconds"]
    q = [x[3] for x in summary["auto_vs_expert"]]

    def ratios(rs, digits, none):
        """min, max and how many are slower (beyond float noise) of auto's ratios."""
        if not rs:
            return none
        return "min %.*f, max %.4f over %d cases, slower in %d" % (
            digits, min(rs), max(rs), len(rs), sum(1 for r in rs if r > 1 + 1e-9))
    out = ["# Search benchmark", "",
           "Generated by `bench/search.py` (%s; %d cases, %.0f s). Every number is the simulator's (step time) "
           "and the liveness walk's (peak memory per device) on the same cost model; `(OOM)`: over the device's "
           "HBM. auto = MCTS (`--iterations %d`, `--time-budget %g`, seed 0, 2 threads); exhaustive only on the "
           "small programs and only when it finishes within the budget. Experts are the tactic schedules of "
           "`tactics/`." % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), summary["cases"],
                             time.time() - started, a.iterations, a.budget),
           "", "## Summary", "",
           "- auto over memory while some method's plan fits (with memory levers where sharding alone does not fit): **%d**"
           % summary["auto_infeasible_with_feasible"],
           "- cases where no sharding-only plan of auto fits: %d; auto with memory levers (`--levers auto`) fits in %d of "
           "them, %d of which no method (expert, ILP, exhaustive) fits without levers; lever search wall time %s" % (
               summary["lever_cases"], summary["lever_fits"], summary["lever_only"],
               ("median %.1f s, max %.1f s" % (sorted(summary["lever_seconds"])[len(summary["lever_seconds"]) // 2],
                                               max(summary["lever_seconds"]))) if summary["lever_seconds"] else "—"),
           "- auto / best feasible expert (step time): %s" % ratios(q, 3, "no case with both feasible"),
           "- auto / exhaustive optimum: %s" % ratios(summary["auto_vs_exhaustive"], 4, "none finished"),
           "- auto / ILP: %s" % ratios(summary["auto_vs_ilp"], 3,
                                       "ILP not in this build" if not ilp else "no case with both feasible"),
           "- same seed, two runs (%s, `data=8,model=8`, 200 iterations): %s" % (
               progs[-1][0], "identical" if same else "DIFFERENT"),
           ""]
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(out + ["## Results"] + lines) + "\n")
    print("wrote " + a.out, file=sys.stderr)


if __name__ == "__main__":
    main()
