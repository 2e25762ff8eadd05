#!/usr/bin/env bash
# Runs every benchmark; results on stdout: Google Benchmark (parser,
# analysis, simulator, ILP), then the simulator's fidelity table against
# Megatron-LM's published runs (docs/fidelity.md), the sanity table
# (docs/sanity.md), the memory levers at GPT-3 scale (docs/levers.md,
# about 4 minutes) and the HTML report's size and render time (docs/report.md). The search benchmark (bench/search.py, about 25 minutes)
# is run on its own. Last, basic propagation against parse + print
# (docs/propagation-speed.md).
set -euo pipefail
build=${1:-build}
"$build/bin/autopart_bench" --benchmark_min_time=0.2
python3 "$(dirname "$0")/../bench/fidelity.py" --build "$build" --no-ablate
python3 "$(dirname "$0")/../bench/sanity.py" "$build"
python3 "$(dirname "$0")/../bench/levers.py" "$build"
python3 "$(dirname "$0")/../bench/report.py" "$build"
python3 "$(dirname "$0")/../bench/propagation.py" "$build"
# The search on the real programs of ../shared/models against the ILP and
# the experts (about 10 minutes; writes bench/results/search_real.md).
python3 "$(dirname "$0")/../bench/search_real.py" --build "$build"
