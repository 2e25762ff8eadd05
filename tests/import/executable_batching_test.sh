#!/usr/bin/env bash
# Shardy's executable tests of -sdy-explicit-gather-scatter-batching
# (import/test/executable_explicit_gather_scatter_batching/*.mlir): each file
# holds a gather/scatter written with an iota-concat "implicit" batch dimension
# (part1) and a main that compares it with an untransformed copy (part2).
# Shardy's own wrapper script (run_sdy_interpreter_test.sh, run unchanged)
# splits the file with split-file, rewrites part1 with the pass, and
# interprets the combination; a `check.expect_eq` mismatch fails it. So the
# rewritten gather/scatter must compute what the original did.
#
# run-lit cannot run these files (their RUN line needs lit's %S and %t, and
# split-file needs the `//---` comment lines run-lit removes from its input),
# so ctest runs them here. The interpreter is `autopart run --entry main`
# (exec/), standing in for `stablehlo-translate --interpret`: both evaluate
# @main and fail on a failed check op.
#
#   $ tests/import/executable_batching_test.sh build/bin/autopart-opt build/bin/autopart DIR
#   gather_iota_at_end_of_concat.mlir: checks: 1/1 passed
#   ...
#   5/5 files passed
set -uo pipefail
opt=$(realpath "$1"); autopart=$(realpath "$2"); dir=$3
split=$(command -v split-file || command -v split-file-14 || echo /usr/lib/llvm-14/bin/split-file)
[ -x "$split" ] || { echo "split-file not found (apt-get install llvm-14-tools)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# `stablehlo-translate --interpret FILE` -> `autopart run FILE --entry main`.
cat > "$work/interpret" <<EOF
#!/usr/bin/env bash
[ "\$1" = "--interpret" ] || { echo "only --interpret is supported" >&2; exit 2; }
exec "$autopart" run "\$2" --entry main
EOF
chmod +x "$work/interpret"
pass=0; total=0
for f in "$dir"/*.mlir; do
  total=$((total + 1))
  out=$(SPLIT_FILE=$split SDY_OPT=$opt STABLEHLO_TRANSLATE="$work/interpret" \
        bash "$dir/run_sdy_interpreter_test.sh" "$f" "$work/case$total" 2>&1)
  rc=$?
  echo "$(basename "$f"): $out"
  # A file whose main holds no check op proves nothing.
  if [ $rc -eq 0 ] && echo "$out" | grep -q "checks: [1-9][0-9]*/[1-9][0-9]* passed"; then
    pass=$((pass + 1))
  fi
done
echo "$pass/$total files passed"
[ "$total" -gt 0 ] && [ "$pass" -eq "$total" ]
