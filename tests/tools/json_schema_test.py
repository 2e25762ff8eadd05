#!/usr/bin/env python3
"""The JSON the CLI prints is what docs/json.md says: every emitted key is
documented with its type, every documented key is emitted by one of the runs
below, and `schema_version` is the documented one. Runs each command on
shipped or generated programs chosen to fill every optional part (collectives,
lever trials).

usage: json_schema_test.py --autopart BIN --root SRC"""
import argparse, json, os, re, subprocess, sys, tempfile

TYPES = {"integer": (int,), "number": (int, float), "string": (str,), "bool": (bool,),
         "object": (dict,), "array": (list,), "null": (type(None),), "simulate": (dict,)}


def documented(root):
    """{section command: {path: type}} from the key tables under the
    `## \\`autopart CMD ...\\`` headings."""
    out, cur = {}, None
    for line in open(os.path.join(root, "docs", "json.md"), encoding="utf-8"):
        h = re.match(r"## `autopart ([a-z]+)", line)
        if h:
            cur = out.setdefault(h.group(1), {})
            continue
        m = re.match(r"\|\s*`([^`]+)`\s*\|\s*([a-z/]+)\s*\|", line)
        if m and cur is not None:
            cur[m.group(1)] = m.group(2)
    return out


def emitted(value, path="", out=None, stop=()):
    """{path: set of JSON types} with `[]` for array elements; paths in
    `stop` are not descended into."""
    out = {} if out is None else out
    if isinstance(value, dict) and path not in stop:
        for k, v in value.items():
            emitted(v, f"{path}.{k}" if path else k, out, stop)
    elif isinstance(value, list):
        for e in value:
            emitted(e, path + "[]", out, stop)
    if path:
        out.setdefault(path, set()).add(type(value))
    return out


def match(doc_paths, path):
    """The documented path `path` falls under (exact, or with `*` keys)."""
    if path in doc_paths:
        return path
    for d in doc_paths:
        if "*" in d and re.fullmatch(re.escape(d).replace(r"\*", r"[^.\[\]]+"), path):
            return d
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    ex = lambda n: os.path.join(a.root, "examples", n)
    tmp = tempfile.mkdtemp()

    def run(*cmd, out=None):
        p = subprocess.run([a.autopart, *cmd], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"autopart {' '.join(cmd)} failed:\n{p.stderr}")
        return p.stdout

    planned = os.path.join(tmp, "planned.mlir")
    run("plan", ex("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--tactics", "dp,megatron", "-o", planned)
    small = os.path.join(tmp, "small_gpt.mlir")
    run("gen", "gpt", "--layers", "2", "--d-model", "512", "--heads", "8", "--seq", "1024", "--batch", "1024",
        "-o", small)
    # A loop whose trip count is an argument: the simulator warns.
    loop = os.path.join(tmp, "loop.mlir")
    with open(loop, "w") as f:
        f.write("""func.func @main(%x: tensor<64x64xf32>, %n: tensor<i32>) -> tensor<64x64xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%a = %x, %i = %c0) : tensor<64x64xf32>, tensor<i32>
    cond {
    %p = stablehlo.compare  LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %y, %j : tensor<64x64xf32>, tensor<i32>
  }
  return %r#0 : tensor<64x64xf32>
}
""")
    quick = ["--iterations", "10", "--time-budget", "2", "--seed", "1"]
    plan_json = lambda name: os.path.join(tmp, name + ".json")
    run("plan", ex("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--tactics", "dp,auto", *quick, "-o",
        os.path.join(tmp, "p1.mlir"), "--report-json", plan_json("auto"))
    # An argument the input already shards: the dp tactic skips it.
    run("plan", os.path.join(a.root, "tests", "golden", "export", "preserve_text_existing_mesh.mlir"),
        "--tactics", "dp", "-o", os.path.join(tmp, "p2.mlir"), "--report-json", plan_json("skipped"))
    # Two axes on one dimension: a spec entry that is a list.
    run("plan", ex("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--tactics", "dp:data,dp:model", "-o",
        os.path.join(tmp, "p3.mlir"), "--report-json", plan_json("two_axes"))
    runs = {
        "analyze": [["analyze", ex("gpt_tiny.mlir"), "--json"]],
        "simulate": [["simulate", planned, "--json"], ["simulate", loop, "--json"]],
        # A program that does not fit a v5e without levers fills the lever parts.
        "search": [["search", ex("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--json", "--method", "mcts,dp",
                    *quick],
                   ["search", small, "--mesh", "data=2", "--device", "tpu-v5e", "--json", *quick]],
        "plan": [plan_json("auto"), plan_json("skipped"), plan_json("two_axes")],
    }
    docs = documented(a.root)
    problems = []
    for cmd, invocations in runs.items():
        doc = docs.get(cmd)
        if doc is None:
            problems.append(f"docs/json.md has no section for `autopart {cmd}`")
            continue
        seen = set()
        for inv in invocations:
            if isinstance(inv, str):
                with open(inv) as f:
                    value = json.load(f)
            else:
                value = json.loads(run(*inv))
            if value.get("schema_version") != 1:
                problems.append(f"{cmd}: schema_version is {value.get('schema_version')!r}, docs say 1")
            nested = {d: doc[d] for d in doc if doc[d] == "simulate"}
            for d in nested:
                sub = value
                for part in d.split("."):
                    sub = sub.get(part, {}) if isinstance(sub, dict) else {}
                for path, types in emitted(sub).items():
                    if match(docs["simulate"], path) is None:
                        problems.append(f"{cmd}: `{d}.{path}` is emitted but not in the simulate section")
            for path, types in emitted(value, stop=set(nested)).items():
                d = match(doc, path)
                if d is None:
                    problems.append(f"{cmd}: `{path}` is emitted but not in docs/json.md")
                    continue
                seen.add(d)
                allowed = tuple(t for name in doc[d].split("/") for t in TYPES[name])
                for t in types:
                    if not issubclass(t, allowed) or (t is bool and "bool" not in doc[d].split("/")):
                        problems.append(f"{cmd}: `{path}` is {t.__name__}, docs/json.md says {doc[d]}")
        for d in doc:
            if d not in seen:
                problems.append(f"{cmd}: `{d}` is in docs/json.md but no run emitted it")
    for p in problems:
        print(p)
    print(f"{sum(len(d) for d in docs.values())} documented keys, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
