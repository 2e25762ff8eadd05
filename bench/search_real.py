#!/usr/bin/env python3
"""Benchmark of the automatic search on real programs it was not tuned on:
every program in ../shared/models x meshes (data=8, model=8, data=2,model=4,
data=8,model=8) x device presets (a100-80gb, h100-80gb, tpu-v5e), auto (the
`mcts` method: tree search, ILP start and expert plans as a portfolio) and
the tree search alone (`--no-portfolio`) against the ILP baseline, the
expert schedules and the exhaustive search (where it finishes), with every
method's search time. Writes
bench/results/search_real.md.

  bench/search_real.py [--build build] [--budget 3] [--all-devices]

Sampling: by default each program x mesh pair runs on one device preset,
rotating through the three in program-then-mesh order (every preset gets a
third of the pairs); --all-devices runs the full cross product (three
times as long). Programs whose `sdy.manual_computation` fixes the input's
mesh run only on the meshes their axes map onto (`--input-shardings map`);
the others start from scratch (`--input-shardings drop`).

`bench/search_anytime.py` measures plan quality against the time budget.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from search import EXPERTS, better, gib, ms, run, secs  # noqa: E402

MODELS = os.path.join(ROOT, "..", "shared", "models")
MESHES = ["data=8", "model=8", "data=2,model=4", "data=8,model=8"]
DEVICES = ["a100-80gb", "h100-80gb", "tpu-v5e"]


def search(autopart, program, mesh, device, methods, budget, iterations=0, extra=()):
    """(results by method, wall seconds, input-shardings mode, error)."""
    import json
    err = ""
    for mode in ("drop", "map"):
        cmd = [autopart, "search", program, "--mesh", mesh, "--device", device, "--method", ",".join(methods),
               "--json", "--time-budget", str(budget), "--levers", "none", "--input-shardings", mode] + list(extra)
        if iterations:
            cmd += ["--iterations", str(iterations)]
        p, wall = run(cmd, timeout=900)
        if p.returncode == 0:
            return {r["method"]: r for r in json.loads(p.stdout)["results"]}, wall, mode, ""
        err = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "exit %d" % p.returncode
        if "--input-shardings" not in err:
            break
    return None, 0, "", err


def origin(auto):
    """Which start auto's plan came from: the tree search, the ILP or an expert."""
    acts = " ".join(auto.get("actions", []))
    if "portfolio: expert schedule" in acts:
        return "expert"
    if "portfolio: refined from the ILP" in acts:
        return "ILP start"
    if "portfolio: the ILP's plan" in acts:
        return "ILP plan"
    return "tree"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(HERE, "results", "search_real.md"))
    ap.add_argument("--budget", type=float, default=3, help="--time-budget of every method (seconds)")
    ap.add_argument("--all-devices", action="store_true", help="every device preset for every pair")
    ap.add_argument("--programs", default="", help="comma-separated subset of the model file names")
    a = ap.parse_args()
    autopart = os.path.join(a.build, "bin", "autopart")
    started = time.time()
    names = sorted(f[:-5] for f in os.listdir(MODELS) if f.endswith(".mlir"))
    if a.programs:
        names = [n for n in names if n in a.programs.split(",")]
    methods = ["mcts", "ilp"] + EXPERTS
    rows, skipped = [], []
    cases = []  # dicts for the summary
    pair = 0
    for name in names:
        path = os.path.join(MODELS, name + ".mlir")
        for mesh in MESHES:
            devices = DEVICES if a.all_devices else [DEVICES[pair % len(DEVICES)]]
            pair += 1
            for device in devices:
                res, wall, mode, err = search(autopart, path, mesh, device, methods, a.budget)
                if res is None:
                    skipped.append((name, mesh, device, err))
                    print(f"{name} {mesh} {device}: skipped: {err[:120]}", file=sys.stderr)
                    continue
                alone, _, _, _ = search(autopart, path, mesh, device, ["mcts"], a.budget, extra=["--no-portfolio"])
                tree = alone["mcts"] if alone else None
                ex, _, _, _ = search(autopart, path, mesh, device, ["exhaustive"], a.budget)
                exh = ex["exhaustive"] if ex and ex["exhaustive"].get("found") and ex["exhaustive"]["complete"] \
                    else None
                auto, ilp = res["mcts"], res["ilp"]
                best = None
                for x in EXPERTS:
                    if res[x].get("found") and (best is None or better(res[x], best)):
                        best = res[x]
                c = {"name": name, "mesh": mesh, "device": device, "auto_s": auto["search_seconds"],
                     "ilp_s": ilp["search_seconds"], "origin": origin(auto), "fits": auto.get("fits")}
                if tree and tree.get("found") and tree["fits"] and ilp.get("found") and ilp["fits"]:
                    c["tree_vs_ilp"] = tree["step_seconds"] / ilp["step_seconds"]
                if auto.get("found") and auto["fits"]:
                    if ilp.get("found") and ilp["fits"]:
                        c["vs_ilp"] = auto["step_seconds"] / ilp["step_seconds"]
                    if best and best["fits"]:
                        c["vs_expert"] = auto["step_seconds"] / best["step_seconds"]
                    if exh and exh["fits"]:
                        c["vs_exh"] = auto["step_seconds"] / exh["step_seconds"]
                cases.append(c)

                def q(key):
                    return "%.3f" % c[key] if key in c else "—"
                ilp_cell = ms(ilp) if ilp.get("found") else "none (%s)" % ilp.get("note", "")[:40]
                rows.append(f"| `{name}` | `{mesh}` | {device} | {mode} | {ms(auto)} | {gib(auto)} | {secs(auto)} | "
                            f"{c['origin']} | {ms(tree)} | {q('tree_vs_ilp')} | {ilp_cell} | {secs(ilp)} | {q('vs_ilp')} | "
                            f"{best['method'] if best else '—'} | {ms(best)} | {q('vs_expert')} | "
                            f"{ms(exh) if exh else 'did not finish'} | {q('vs_exh')} |")
                print(f"{name} {mesh} {device}: auto {ms(auto)} ({auto['search_seconds']:.1f} s, {c['origin']}), "
                      f"ILP {ms(ilp)} ({ilp['search_seconds']:.1f} s), {wall:.0f} s", file=sys.stderr)

    # Determinism: the same search twice with an iteration budget.
    det = os.path.join(MODELS, "jax_mnist_cnn_train_step.mlir")
    d1, _, _, _ = search(autopart, det, "data=2,model=4", "a100-80gb", ["mcts"], 120, iterations=200)
    d2, _, _, _ = search(autopart, det, "data=2,model=4", "a100-80gb", ["mcts"], 120, iterations=200)
    same = d1 is not None and d2 is not None and d1["mcts"]["actions"] == d2["mcts"]["actions"] and \
        d1["mcts"]["step_seconds"] == d2["mcts"]["step_seconds"]

    def ratios(key):
        rs = [c[key] for c in cases if key in c]
        if not rs:
            return "no case with both plans fitting"
        return "min %.3f, max %.4f over %d cases, slower in %d" % (
            min(rs), max(rs), len(rs), sum(1 for r in rs if r > 1 + 1e-9))

    def med_max(key):
        v = [c[key] for c in cases]
        return "median %.2f s, worst %.2f s" % (statistics.median(v), max(v)) if v else "—"
    compared = [c for c in cases if "vs_ilp" in c]
    tree_wins = [c for c in cases if c["origin"] == "tree"]
    tree_vs_ilp = [c for c in compared if c["origin"] == "tree"]
    per_program = []
    for name in names:
        cs = [c for c in cases if c["name"] == name]
        if not cs:
            per_program.append(f"| `{name}` | 0 | — | — | — | — |")
            continue

        def worst(key):
            v = [c[key] for c in cs if key in c]
            return "%.3f" % max(v) if v else "—"
        per_program.append(f"| `{name}` | {len(cs)} | {worst('vs_ilp')} | {worst('vs_expert')} | "
                           f"{worst('vs_exh')} | {sum(1 for c in cs if c['origin'] == 'tree')} |")
    mode = "every device preset" if a.all_devices else "one device preset per program x mesh, rotating"
    out = ["# Search benchmark on real programs", "",
           "Generated by `bench/search_real.py` (%s; %d cases, %d skipped, %.0f s). Programs: every `.mlir` in "
           "`../shared/models` (none of them in `bench/search.py`, which tuned the search); meshes %s; devices "
           "%s (%s). Every method has `--time-budget %g` (seed 0, 2 threads, default iterations); the numbers are "
           "the simulator's step time and the liveness walk's peak memory on one cost model. auto = the `mcts` "
           "method: the ILP solved on a thread of its own beside the tree search (which then takes one thread), "
           "its plan one more refinement start and, with the expert plans, a final candidate: a portfolio; "
           "*from* says which start auto's plan came from; *tree alone* is `--no-portfolio` with the same "
           "budget. The machine has two cores shared with other jobs, so search times are noisy and a time "
           "budget cut short changes plans."
           % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), len(cases), len(skipped), time.time() - started,
              ", ".join("`%s`" % m for m in MESHES), ", ".join(DEVICES), mode, a.budget),
           "", "## Summary", "",
           "- auto / ILP (both fit): %s" % ratios("vs_ilp"),
           "- auto / best feasible expert: %s" % ratios("vs_expert"),
           "- auto / exhaustive optimum of the action space (where it finished): %s" % ratios("vs_exh"),
           "- auto over memory: %d of %d cases" % (sum(1 for c in cases if not c["fits"]), len(cases)),
           "- auto's plan came from the tree search's own start (the MCTS alone; the ILP's and the experts' plans "
           "lost or tied): %d of %d cases (%.0f%%); of the %d cases with an ILP plan to compare, %d" % (
               len(tree_wins), len(cases), 100.0 * len(tree_wins) / max(1, len(cases)), len(compared),
               len(tree_vs_ilp)),
           "- the tree search alone (`--no-portfolio`, same budget) / ILP: %s" % ratios("tree_vs_ilp"),
           "- from the ILP's plan refined: %d; the ILP's plan as it is: %d; an expert's plan: %d" % (
               sum(1 for c in cases if c["origin"] == "ILP start"), sum(1 for c in cases if c["origin"] == "ILP plan"),
               sum(1 for c in cases if c["origin"] == "expert")),
           "- search time: auto %s; ILP %s" % (med_max("auto_s"), med_max("ilp_s")),
           "- same seed, two runs (`jax_mnist_cnn_train_step`, `data=2,model=4`, a100-80gb, 200 iterations): %s" % (
               "identical" if same else "DIFFERENT"),
           "", "## Worst ratio per program", "",
           "| program | cases | worst auto / ILP | worst auto / expert | worst auto / exhaustive | tree start won |",
           "|---|---|---|---|---|---|"] + per_program + [
           "", "## Results", "",
           "| program | mesh | device | input shardings | auto step | auto GiB | auto search | from | tree alone | "
           "tree alone / ILP | ILP step | ILP search | auto / ILP | best expert | expert step | auto / expert | "
           "exhaustive | auto / exh. |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"] + rows
    if skipped:
        out += ["", "## Skipped", "", "| program | mesh | device | why |", "|---|---|---|---|"]
        out += [f"| `{n}` | `{m}` | {d} | {e[:160].replace('|', '/')} |" for n, m, d, e in skipped]
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote " + a.out, file=sys.stderr)


if __name__ == "__main__":
    main()
