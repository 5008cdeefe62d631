#!/usr/bin/env bash
# make bench: runs the benchmarks single-threaded (medians of 5 repetitions)
# and writes the table, bench/results.json and docs/bench.png. Repetitions
# of all benchmarks are interleaved at random, so that a slow spell of a
# shared machine hits the primal, Cotangent's and the hand-written runs
# alike instead of one of them.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
raw=$(mktemp --suffix=.json)
trap 'rm -f "$raw"' EXIT
"$root/$build/bin/cotangent-bench" \
  --benchmark_repetitions=${BENCH_REPETITIONS:-5} \
  --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true \
  --benchmark_filter="${BENCH_FILTER:-.}" \
  --benchmark_out="$raw" --benchmark_out_format=json
# Compile time: generated functions of 1k-32k statements and the workload
# files, with and without the plugin (bench/compile/run.py); the runtime
# table's "compile x" column comes from its results, and docs/Performance.md's
# compile-time tables are written from them.
/usr/bin/python3 "$root/bench/compile/run.py" "$root/$build" \
  "$root/bench/compile-results.json"
# Long loops checkpointed without a pragma against every loop recorded
# (bench/auto_checkpoint.py: docs/Performance.md, "Checkpointing").
/usr/bin/python3 "$root/bench/auto_checkpoint.py" "$build"
# Eigen: a Cholesky solve's gradient through the matrix-level rules, and a
# pose-graph edge's Jacobian against Ceres's Jets and by hand
# (docs/Eigen.md).
/usr/bin/python3 "$root/bench/matrix_rules.py" "$build"
/usr/bin/python3 "$root/bench/pose_graph.py" "$build"
/usr/bin/python3 "$root/bench/report.py" "$raw" \
  "$root/bench/compile-results.json" "$root/bench/results.json" \
  "$root/docs/bench.png"
# docs/Performance.md's and README's measured numbers, from the JSON files.
/usr/bin/python3 "$root/scripts/docs-tables.py" "$root"
