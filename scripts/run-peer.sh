#!/usr/bin/env bash
# Runs one Shardy peer lit file with the shared runner and fails when fewer
# than MIN cases pass, so that the suite is a ratchet: a regression fails CI.
set -uo pipefail
opt=$1; filecheck=$2; suite=$3; min=$4
here=$(cd "$(dirname "$0")" && pwd)
out=$(python3 "$here/../../shared/tools/run-lit" --opt "$opt" --filecheck "$filecheck" -v "$suite" 2>&1)
echo "$out" | tail -40
passed=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, [0-9]* failed$/\1/p' | tail -1)
[ -n "$passed" ] || { echo "run-peer: no summary line"; exit 1; }
if [ "$passed" -lt "$min" ]; then
  echo "run-peer: $passed passed, expected at least $min"; exit 1
fi
echo "run-peer: $passed passed (minimum $min)"
