#!/usr/bin/env python3
"""Checks that -sdy-resolve-permutation-factors keeps a program's values.

Each function of the given files (one module per function, the files' meshes
kept) and a set of seeded random pads, slices, reverses and reshapes on
random meshes is run by `autopart run` on random inputs: as written, after
the pass with halo exchange off, and after it with halo exchange on. The
results must be identical. Manual computations run per device with their
collective permutes, so a wrong halo (pairs, offsets, padding) changes the
values; sdy.reshard and sdy.all_gather only move data between devices and
are identities on global values, so they are read as such.

  $ permutation_equivalence.py --opt build/bin/autopart-opt --autopart build/bin/autopart FILE...
"""
import argparse, random, re, shutil, subprocess, sys

IDENTITY = re.compile(r"(%[\w#]+) = sdy\.(?:reshard|all_gather \[.*?\]) (%[\w#]+) .*?: (tensor<[^>]*>)\s*$", re.M)


def functions(path):
    lines = open(path).read().split("\n")
    header = [l for l in lines if l.startswith("sdy.mesh")]
    out, cur = [], None
    for l in lines:
        if l.startswith("func.func"):
            cur = [l]
        elif cur is not None:
            cur.append(l)
            if l.startswith("}"):
                out.append(cur)
                cur = None
    for f in out:
        name = re.search(r"@([\w]+)", f[0]).group(1)
        yield name, "\n".join(header + [l for l in f if not l.strip().startswith("//")])


def shape_str(shape):
    return "x".join(map(str, shape)) + "xi32"


def random_case(rng, k):
    """A pad, slice, reverse or reshape of a sharded tensor on a random mesh."""
    sizes = rng.choice([[2], [4], [2, 2], [4, 2], [2, 3], [3]])
    names = ["a", "b"][: len(sizes)]
    mesh = "sdy.mesh @m = <[%s]>" % ", ".join('"%s"=%d' % (n, s) for n, s in zip(names, sizes))
    rank = rng.choice([1, 2])
    shape = [rng.randint(2, 9) for _ in range(rank)]
    dims = [[] for _ in range(rank)]
    for n in names:
        if rng.random() < 0.8:
            dims[rng.randrange(rank)].append(n)
    sh = "[%s]" % ", ".join("{%s}" % ", ".join('"%s"' % a for a in d) for d in dims)
    kind = rng.choice(["pad", "slice", "reverse", "reshape"])
    name = "case%d_%s" % (k, kind)
    t_in = "tensor<%s>" % shape_str(shape)
    if kind == "pad":
        low = [rng.randint(-1, 5) for _ in shape]
        high = [rng.randint(-1, 5) for _ in shape]
        interior = [rng.choice([0, 0, 1, 2]) for _ in shape]
        out = [(s - 1) * (i + 1) + 1 + l + h for s, l, h, i in zip(shape, low, high, interior)]
        if min(out) < 1:
            return None
        body = ("  %%c = stablehlo.constant dense<0> : tensor<i32>\n"
                "  %%0 = stablehlo.pad %%arg0, %%c, low = %s, high = %s, interior = %s "
                "{sdy.sharding = #sdy.sharding_per_value<[<@m, %s>]>} : (%s, tensor<i32>) -> tensor<%s>\n"
                % (low, high, interior, sh, t_in, shape_str(out)))
    elif kind == "slice":
        starts = [rng.randint(0, s - 1) for s in shape]
        limits = [rng.randint(b + 1, s) for b, s in zip(starts, shape)]
        out = [l - b for b, l in zip(starts, limits)]
        body = ("  %%0 = stablehlo.slice %%arg0 [%s] {sdy.sharding = #sdy.sharding_per_value<[<@m, %s>]>} : (%s) -> tensor<%s>\n"
                % (", ".join("%d:%d" % bl for bl in zip(starts, limits)), sh, t_in, shape_str(out)))
    elif kind == "reverse":
        rev = sorted(rng.sample(range(rank), rng.randint(1, rank)))
        out = shape
        body = ("  %%0 = stablehlo.reverse %%arg0, dims = %s {sdy.sharding = #sdy.sharding_per_value<[<@m, %s>]>} : %s\n"
                % (rev, sh, t_in))
    else:
        # Split the first dimension into two whose sharding carries the same axes.
        if rank != 1 or len(dims[0]) == 0:
            return None
        n = shape[0]
        splits = [a for a in range(2, n) if n % a == 0]
        if not splits:
            return None
        a = rng.choice(splits)
        out = [a, n // a]
        osh = '[{"%s"}, {%s}]' % (dims[0][0], ", ".join('"%s"' % x for x in dims[0][1:]))
        body = ("  %%0 = stablehlo.reshape %%arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, %s>]>} : (%s) -> tensor<%s>\n"
                % (osh, t_in, shape_str(out)))
    text = "%s\nfunc.func @%s(%%arg0: %s {sdy.sharding = #sdy.sharding<@m, %s>}) -> tensor<%s> {\n%s  return %%0 : tensor<%s>\n}\n" % (
        mesh, name, t_in, sh, shape_str(out), body, shape_str(out))
    if rng.random() < 0.25:  # the mesh written inline in every sharding
        inline = "mesh" + mesh.split(" = ", 1)[1]
        text = text.split("\n", 1)[1].replace("<@m,", "<%s," % inline)
    return name, text


def run(args, name, text, tmp):
    outputs = {}
    src = "%s/%s.mlir" % (tmp, name)
    open(src, "w").write(text)
    for mode in ["as-written", "false", "true"]:
        prog = src
        if mode != "as-written":
            prog = "%s/%s.%s.mlir" % (tmp, name, mode)
            r = subprocess.run([args.opt, src, "-sdy-resolve-permutation-factors=enable-halo-exchange=" + mode, "-o", prog],
                               capture_output=True, text=True)
            if r.returncode:
                return "pass failed (halo %s): %s" % (mode, r.stderr.strip()[:500])
        glob = prog + ".global.mlir"
        open(glob, "w").write(IDENTITY.sub(r"\1 = stablehlo.convert \2 : (\3) -> \3", open(prog).read()))
        r = subprocess.run([args.autopart, "run", glob, "--entry", name, "--inputs", "random", "--seed", "7"],
                           capture_output=True, text=True)
        if r.returncode:
            return "run failed (%s): %s" % (mode, r.stderr.strip()[:500])
        outputs[mode] = r.stdout
    for mode in ["false", "true"]:
        if outputs[mode] != outputs["as-written"]:
            return "halo %s changes the result:\n%s\nvs\n%s" % (mode, outputs["as-written"], outputs[mode])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opt", required=True)
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--random", type=int, default=60, help="random cases to add")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    import tempfile
    tmp = tempfile.mkdtemp(prefix="permutation-equivalence-")
    cases = [c for f in a.files for c in functions(f)]
    rng = random.Random(19)
    k = 0
    while sum(1 for n, _ in cases if n.startswith("case")) < a.random:
        c = random_case(rng, k)
        k += 1
        if c:
            cases.append(c)
    failed = 0
    for name, text in cases:
        err = run(a, name, text, tmp)
        if err:
            failed += 1
            print("FAIL %s: %s" % (name, err))
    print("%d/%d programs keep their values" % (len(cases) - failed, len(cases)))
    if not failed:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
