#!/usr/bin/env bash
# The main job on a shipped example: what the program is made of, then the
# stages autopart has so far, each on the same input.
set -euo pipefail
build=${1:-build}
bin=$build/bin
ex=examples/mlp_forward.mlir
echo "== autopart stats $ex"
"$bin/autopart" stats "$ex"
echo
echo "== autopart analyze $ex --mesh data=8,model=4"
"$bin/autopart" analyze "$ex" --mesh data=8,model=4
out=$build/demo
mkdir -p "$out"
for tactics in dp,fsdp dp,megatron; do
  echo
  echo "== autopart plan $ex --mesh data=8,model=4 --tactics $tactics -o $out/plan-$tactics.mlir"
  "$bin/autopart" plan "$ex" --mesh data=8,model=4 --tactics "$tactics" \
      -o "$out/plan-$tactics.mlir" --specs "$out/specs-$tactics.json"
  echo "== autopart simulate $out/plan-$tactics.mlir --device h100-80gb"
  "$bin/autopart" simulate "$out/plan-$tactics.mlir" --device h100-80gb --top 3
done
echo
echo "== the dp,megatron plan ($out/plan-dp,megatron.mlir):"
cat "$out/plan-dp,megatron.mlir"
