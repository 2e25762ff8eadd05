#!/usr/bin/env bash
# The main job on a shipped example: what the program is made of, then the
# stages autopart has so far, each on the same input.
set -euo pipefail
build=${1:-build}
bin=$build/bin
ex=examples/mlp_forward.mlir
echo "== autopart stats $ex"
"$bin/autopart" stats "$ex"
for cmd in analyze plan; do
  if "$bin/autopart" --help 2>/dev/null | grep -qE "^  $cmd( |$)"; then
    echo
    echo "== autopart $cmd $ex --mesh data=8,model=4"
    "$bin/autopart" "$cmd" "$ex" --mesh data=8,model=4 || true
  fi
done
echo
echo "== autopart-opt $ex (parse and print back, MLIR style)"
"$bin/autopart-opt" "$ex"
