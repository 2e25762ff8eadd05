#!/usr/bin/env bash
# Runs every benchmark; results on stdout (Google Benchmark console format).
set -euo pipefail
build=${1:-build}
"$build/bin/autopart_bench" --benchmark_min_time=0.2
