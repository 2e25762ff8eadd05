#!/usr/bin/env python3
"""Stand-in benchmark programs for bench/search.py when `autopart gen` is not
in the build: a stack of L transformer blocks (attention + MLP, bf16) with
one optimizer-state argument per parameter and an elementwise update
(w' = w - mu) returned for each. It is a forward pass plus an update, not a
full training step (no backward, no loss), so its step times are not those
of training; it exercises the search on a deep model's shapes and memory.

  search_programs.py stack L B S M H D F > out.mlir
"""
import sys


def stack(L, B, S, M, H, D, F, T="bf16"):
    def t(*d):
        return "tensor<" + "x".join(str(x) for x in d) + "x" + T + ">"

    args = [f'%x: {t(B, S, M)} {{jax.arg_info = "batch[\'x\']"}}']
    params = []
    for l in range(L):
        for nm, sh in [("wq", (M, H, D)), ("wk", (M, H, D)), ("wv", (M, H, D)), ("wo", (H, D, M)),
                       ("w1", (M, F)), ("w2", (F, M))]:
            params.append((f"{nm}_{l}", sh))
    args += [f'%{p}: {t(*sh)} {{jax.arg_info = "params[\'{p}\']"}}' for p, sh in params]
    args += [f'%mu_{p}: {t(*sh)} {{jax.arg_info = "opt_state[\'mu\'][\'{p}\']"}}' for p, sh in params]
    body = [f"  %zero = stablehlo.constant dense<0.000000e+00> : tensor<{T}>"]
    x = "%x"
    for l in range(L):
        def q(n):
            return f"%{n}_{l}"
        body += [
            f"  {q('q')} = stablehlo.dot_general {x}, %wq_{l}, contracting_dims = [2] x [0] : ({t(B,S,M)}, {t(M,H,D)}) -> {t(B,S,H,D)}",
            f"  {q('k')} = stablehlo.dot_general {x}, %wk_{l}, contracting_dims = [2] x [0] : ({t(B,S,M)}, {t(M,H,D)}) -> {t(B,S,H,D)}",
            f"  {q('v')} = stablehlo.dot_general {x}, %wv_{l}, contracting_dims = [2] x [0] : ({t(B,S,M)}, {t(M,H,D)}) -> {t(B,S,H,D)}",
            f"  {q('s')} = stablehlo.dot_general {q('q')}, {q('k')}, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : ({t(B,S,H,D)}, {t(B,S,H,D)}) -> {t(B,H,S,S)}",
            f"  {q('e')} = stablehlo.exponential {q('s')} : {t(B,H,S,S)}",
            f"  {q('sum')} = stablehlo.reduce({q('e')} init: %zero) applies stablehlo.add across dimensions = [3] : ({t(B,H,S,S)}, tensor<{T}>) -> {t(B,H,S)}",
            f"  {q('sb')} = stablehlo.broadcast_in_dim {q('sum')}, dims = [0, 1, 2] : ({t(B,H,S)}) -> {t(B,H,S,S)}",
            f"  {q('p')} = stablehlo.divide {q('e')}, {q('sb')} : {t(B,H,S,S)}",
            f"  {q('a')} = stablehlo.dot_general {q('p')}, {q('v')}, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : ({t(B,H,S,S)}, {t(B,S,H,D)}) -> {t(B,H,S,D)}",
            f"  {q('o')} = stablehlo.dot_general {q('a')}, %wo_{l}, contracting_dims = [1, 3] x [0, 1] : ({t(B,H,S,D)}, {t(H,D,M)}) -> {t(B,S,M)}",
            f"  {q('h')} = stablehlo.add {x}, {q('o')} : {t(B,S,M)}",
            f"  {q('m1')} = stablehlo.dot_general {q('h')}, %w1_{l}, contracting_dims = [2] x [0] : ({t(B,S,M)}, {t(M,F)}) -> {t(B,S,F)}",
            f"  {q('g')} = stablehlo.logistic {q('m1')} : {t(B,S,F)}",
            f"  {q('m2')} = stablehlo.dot_general {q('g')}, %w2_{l}, contracting_dims = [2] x [0] : ({t(B,S,F)}, {t(F,M)}) -> {t(B,S,M)}",
            f"  {q('y')} = stablehlo.add {q('h')}, {q('m2')} : {t(B,S,M)}",
        ]
        x = q("y")
    rets, rtypes = [x], [t(B, S, M)]
    for p, sh in params:
        body.append(f"  %new_{p} = stablehlo.subtract %{p}, %mu_{p} : {t(*sh)}")
        rets.append(f"%new_{p}")
        rtypes.append(t(*sh))
    lines = [f"func.func public @main({', '.join(args)}) -> ({', '.join(rtypes)}) {{"]
    lines += body
    lines.append(f"  return {', '.join(rets)} : {', '.join(rtypes)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 9 or sys.argv[1] != "stack":
        sys.exit(__doc__)
    sys.stdout.write(stack(*[int(a) for a in sys.argv[2:]]))
